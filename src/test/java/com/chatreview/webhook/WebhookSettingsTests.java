package com.chatreview.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timeouts of a delivery attempt and the claim that outlives it, from {@code WEBHOOK_TIMEOUT}. */
class WebhookSettingsTests {

    @Test
    void theDefaultAnswerTimeoutConnectsWithinFiveSecondsAndClaimsForThirty() {
        WebhookSettings settings = settings(Duration.ofSeconds(10));

        assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.claimLease()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aShortTimeoutShortensTheConnectionAndTheClaimWhichStillOutlivesTheLongestAttempt() {
        WebhookSettings settings = settings(Duration.ofSeconds(3));

        assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(settings.claimLease())
                .isEqualTo(Duration.ofSeconds(12))
                .isGreaterThan(settings.timeout().plus(settings.connectTimeout()));
    }

    @Test
    void aTimeoutOutsideOneToSixtySecondsIsRefusedAtStartup() {
        for (Duration timeout : List.of(Duration.ofMillis(999), Duration.ofSeconds(61), Duration.ZERO)) {
            assertThatThrownBy(() -> settings(timeout))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("WEBHOOK_TIMEOUT");
        }
    }

    private static WebhookSettings settings(Duration timeout) {
        return new WebhookSettings(false, false, List.of(Duration.ofSeconds(5)), timeout);
    }
}
