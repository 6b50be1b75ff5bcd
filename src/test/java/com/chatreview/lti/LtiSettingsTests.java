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
            true,
            List.of("localhost", "127.0.0.1"),
            Duration.ofSeconds(10));

    private final Destinations destinations = new Destinations(
            defaults.destinationPolicy(),
            host -> List.of(InetAddress.getByName(host.equals("lms.example") ? "93.184.216.34" : "10.0.0.7")));

    @Test
    void aPlatformTimeoutOutsideOneToSixtySecondsIsRefusedAtStartup() {
        assertThatThrownBy(() -> withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(60)))
                .hasMessageContaining("lti.platform-timeout must be 1s to 60s");
        assertThatThrownBy(() -> withTimeouts(Duration.ofSeconds(61), Duration.ofMinutes(5)))
                .hasMessageContaining("lti.platform-timeout must be 1s to 60s");
        org.assertj.core.api.Assertions.assertThat(withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(5))
                        .platformTimeout())
                .isEqualTo(Duration.ofSeconds(2));
    }

    private LtiSettings withTimeouts(Duration platformTimeout, Duration scoreLease) {
        LtiSettings d = defaults;
        return new LtiSettings(
                d.allowHttp(),
                d.allowPrivateNetworks(),
                d.publicUrl(),
                d.clockSkew(),
                d.loginTimeout(),
                d.pendingLogins(),
                d.keyRotation(),
                d.keyActivation(),
                d.keyOverlap(),
                d.platformKeysCache(),
                d.platformKeysRefreshLimit(),
                d.maxPlatformsPerTenant(),
                d.failuresPerAddress(),
                d.loginsPerAddress(),
                d.requestsPerSession(),
                d.handInsPerLearner(),
                d.sessionLifetime(),
                d.scorePoll(),
                d.scoreFirstRetry(),
                d.scoreMaxRetry(),
                d.scoreGiveUpAfter(),
                scoreLease,
                d.scoreRetention(),
                d.sharedJwks(),
                d.allowedHosts(),
                platformTimeout);
    }

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

    /**
     * The operator's variables reach the settings they name, through application.yml's mapping (a variable mapped
     * under another prefix is bound to nothing, silently).
     */
    @Test
    void theOperatorsVariablesReachTheLtiSettings() throws Exception {
        var yaml = new org.springframework.boot.env.YamlPropertySourceLoader()
                .load("application.yml", new org.springframework.core.io.ClassPathResource("application.yml"));
        var environment = new org.springframework.core.env.StandardEnvironment();
        environment
                .getPropertySources()
                .addFirst(new org.springframework.core.env.MapPropertySource(
                        "operator",
                        java.util.Map.of(
                                "LTI_SHARED_JWKS", "false",
                                "ALLOWED_HOSTS", "reviews.school.example",
                                "PUBLIC_URL", "https://reviews.school.example")));
        yaml.forEach(source -> environment.getPropertySources().addLast(source));

        LtiSettings bound = org.springframework.boot.context.properties.bind.Binder.get(environment)
                .bindOrCreate("lti", LtiSettings.class);

        org.assertj.core.api.Assertions.assertThat(bound.sharedJwks()).isFalse();
        org.assertj.core.api.Assertions.assertThat(bound.allowedHosts()).containsExactly("reviews.school.example");
        org.assertj.core.api.Assertions.assertThat(bound.publicUrl()).isEqualTo("https://reviews.school.example");
    }
}
