package com.chatreview.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How long a receiver that asks to be left alone ({@code Retry-After}) is: the seconds it names, at most an hour. */
class RetryAfterTests {

    @Test
    void aReceiversRetryAfterIsTakenInSecondsAndAtMostAnHour() {
        assertThat(RetryAfter.of("120")).isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryAfter.of(" 7 ")).isEqualTo(Duration.ofSeconds(7));
        assertThat(RetryAfter.of("3600")).isEqualTo(Duration.ofHours(1));
        assertThat(RetryAfter.of("3601")).isEqualTo(Duration.ofHours(1));
        assertThat(RetryAfter.of("999999999999")).isEqualTo(Duration.ofHours(1));
        // what it cannot read as seconds asks for no wait beyond the service's own back-off
        assertThat(RetryAfter.of(null)).isZero();
        assertThat(RetryAfter.of("-5")).isZero();
        assertThat(RetryAfter.of("Wed, 21 Oct 2026 07:28:00 GMT")).isZero();
        assertThat(RetryAfter.of("99999999999999999999")).isZero();
    }
}
