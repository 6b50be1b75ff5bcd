package com.chatreview.moderation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LiteralPrefixesTests {

    @Test
    void alternativesAreJoinedAndAnOptionalPartForksThePrefixes() {
        assertThat(LiteralPrefixes.of("\\b(kill|hurt) (my ?self|meself)\\b"))
                .containsExactlyInAnyOrder(
                        "kill my ", "kill myself", "kill meself", "hurt my ", "hurt myself", "hurt meself");
        assertThat(LiteralPrefixes.of("\\b(the |my )?(pills|rope) (are|is) ready\\b"))
                .containsExactlyInAnyOrder(
                        "the ", "my ", "pills are ready", "pills is ready", "rope are ready", "rope is ready");
        assertThat(LiteralPrefixes.of("\\bone\\b|\\btwo words\\b")).containsExactlyInAnyOrder("one", "two words");
    }

    @Test
    void theReadingStopsAtWhatItCannotRead() {
        assertThat(LiteralPrefixes.of("\\bnudes?\\b")).containsExactlyInAnyOrder("nudes", "nude");
        assertThat(LiteralPrefixes.of("\\bkill.{0,20}\\bhim\\b")).containsExactly("kill");
        assertThat(LiteralPrefixes.of("\\bsee[a-z]+ you\\b")).containsExactly("see");
    }

    @Test
    void aPatternWithoutALiteralStartOfTwoCharactersHasNone() {
        assertThat(LiteralPrefixes.of("(^|[^\\w+])\\+\\d{1,3}")).isNull();
        assertThat(LiteralPrefixes.of("\\b\\d{5}\\b")).isNull();
        assertThat(LiteralPrefixes.of("\\b(a|we) will\\b")).containsExactlyInAnyOrder("a will", "we will");
        assertThat(LiteralPrefixes.of("\\b(a|b)\\d")).isNull();
        assertThat(LiteralPrefixes.of("\\b(?=x)abc")).isNull();
    }
}
