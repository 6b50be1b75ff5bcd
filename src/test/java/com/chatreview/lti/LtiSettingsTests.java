package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.chatreview.outbound.DestinationRefused;
import com.chatreview.outbound.Destinations;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** By default a platform's URLs are https and public, as webhook URLs are; the fixes name the LTI settings. */
class LtiSettingsTests {

    private final LtiSettings defaults = new LtiSettings(
            false,
            false,
            null,
            Duration.ofSeconds(30),
            Duration.ofMinutes(5),
            100_000,
            Duration.ofDays(90),
            Duration.ofDays(1),
            Duration.ofDays(7),
            Duration.ofHours(1),
            Duration.ofSeconds(30),
            50,
            300,
            3000,
            60,
            20,
            Duration.ofHours(1),
            Duration.ofSeconds(1),
            Duration.ofSeconds(5),
            Duration.ofHours(1),
            Duration.ofDays(3),
            Duration.ofSeconds(60),
            Duration.ofDays(30),
            true);

    private final Destinations destinations = new Destinations(
            defaults.destinationPolicy(),
            host -> List.of(InetAddress.getByName(host.equals("lms.example") ? "93.184.216.34" : "10.0.0.7")));

    @Test
    void plainHttpAndPrivateAddressesAreRefusedNamingTheSettingThatAllowsThem() {
        assertThatThrownBy(() -> destinations.checked("jwks_url", "http://lms.example/jwks"))
                .isInstanceOf(DestinationRefused.class)
                .satisfies(refused -> org.assertj.core.api.Assertions.assertThat(((DestinationRefused) refused).fix())
                        .contains("LTI_ALLOW_HTTP"));
        assertThatThrownBy(() -> destinations.checked("jwks_url", "https://inside.example/jwks"))
                .isInstanceOf(DestinationRefused.class)
                .satisfies(refused -> org.assertj.core.api.Assertions.assertThat(((DestinationRefused) refused).fix())
                        .contains("LTI_ALLOW_PRIVATE_NETWORKS"));
        org.assertj.core.api.Assertions.assertThat(destinations.checked("jwks_url", "https://lms.example/jwks"))
                .hasToString("https://lms.example/jwks");
    }
}
