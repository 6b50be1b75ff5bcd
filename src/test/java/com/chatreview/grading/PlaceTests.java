package com.chatreview.grading;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlaceTests {

    @Test
    void aQuoteIsFencedByMoreBackticksThanItsLongestRunSoItCannotEndEarly() {
        assertThat(Place.code("return x")).isEqualTo("`return x`");
        assertThat(Place.code("s = `ls`")).isEqualTo("`` s = `ls` ``");
        assertThat(Place.code("md = \"``code``\"")).isEqualTo("``` md = \"``code``\" ```");
    }

    @Test
    void aPointerQuotesOneShortenedLine() {
        assertThat(new Place("a.py", 3, "  return   sum(xs)\n").pointer()).isEqualTo("a.py, line 3: `return sum(xs)`");
        assertThat(new Place("a.py", 0, "").pointer()).isEqualTo("a.py");
        assertThat(Place.shorten("x".repeat(150))).hasSize(100).endsWith("…");
    }
}
