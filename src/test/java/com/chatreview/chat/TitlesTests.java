package com.chatreview.chat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TitlesTests {

    @Test
    void takesTheFirstLine() {
        assertThat(Titles.fromMessage("  What is a prime?\nI mean really")).isEqualTo("What is a prime?");
    }

    @Test
    void shortensLongLinesAtAWord() {
        String title =
                Titles.fromMessage("Please explain how the quadratic formula is derived from completing the square");
        assertThat(title)
                .hasSizeLessThanOrEqualTo(Titles.MAX_LENGTH)
                .endsWith("…")
                .startsWith("Please explain how");
        assertThat(title).doesNotContain("squa…");
    }

    @Test
    void blankMessagesKeepTheDefault() {
        assertThat(Titles.fromMessage(" \n ")).isEqualTo(ChatManagement.DEFAULT_TITLE);
    }
}
