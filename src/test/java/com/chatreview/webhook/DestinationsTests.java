package com.chatreview.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.chatreview.webhook.WebhookErrors.DestinationRefused;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a delivery may go (SSRF): decided on the addresses a host resolves to, with the operator's settings. */
class DestinationsTests {

    static final Map<String, String> DNS = Map.of(
            "hooks.example.org", "93.184.216.34",
            "inside.example.org", "10.1.2.3",
            "metadata.example.org", "169.254.169.254",
            "v6-inside.example.org", "fd00::1",
            "cgnat.example.org", "100.64.0.7",
            "loopback.example.org", "127.0.0.2");

    static Destinations destinations(boolean allowHttp, boolean allowPrivate) {
        return new Destinations(
                new WebhookSettings(allowHttp, allowPrivate, null, Path.of("unused"), List.of()), host -> {
                    String address = DNS.get(host);
                    if (address != null) {
                        return List.of(InetAddress.getByName(address));
                    }
                    if (host.matches("[0-9.]+|\\[?[0-9a-f:]+]?")) {
                        return List.of(InetAddress.getByName(host));
                    }
                    throw new UnknownHostException(host);
                });
    }

    @Test
    void aPublicHttpsUrlIsAccepted() {
        assertThat(destinations(false, false).checked("https://hooks.example.org/chat-review?x=1"))
                .hasToString("https://hooks.example.org/chat-review?x=1");
    }

    @Test
    void privateLoopbackLinkLocalAndUniqueLocalAddressesAreRefusedAfterResolution() {
        Destinations strict = destinations(true, false);
        for (String url : List.of(
                "https://127.0.0.1/hook",
                "http://loopback.example.org/hook",
                "https://169.254.169.254/latest/meta-data",
                "https://metadata.example.org/",
                "https://inside.example.org/hook",
                "https://v6-inside.example.org/hook",
                "https://[::1]/hook",
                "https://cgnat.example.org/hook",
                "https://0.0.0.0/hook")) {
            assertThatThrownBy(() -> strict.checked(url), url)
                    .isInstanceOf(DestinationRefused.class)
                    .satisfies(refused -> assertThat(
                                    ((DestinationRefused) refused).code().name())
                            .isEqualTo("VALIDATION_ERROR"));
        }
        assertThatThrownBy(() -> strict.checked("https://inside.example.org/hook"))
                .hasMessageContaining("10.1.2.3");
    }

    @Test
    void theOperatorMayAllowPrivateNetworksAndPlainHttp() {
        Destinations open = destinations(true, true);
        assertThat(open.checked("http://127.0.0.1:8080/hook")).hasToString("http://127.0.0.1:8080/hook");
        assertThat(open.checked("https://inside.example.org/hook")).isNotNull();
    }

    @Test
    void onlyAbsoluteHttpsUrlsWithoutCredentials() {
        Destinations strict = destinations(false, false);
        for (String url : List.of(
                "http://hooks.example.org/hook",
                "ftp://hooks.example.org/hook",
                "/relative",
                "hooks.example.org",
                "https://user:secret@hooks.example.org/hook",
                "https://unknown.example.org/hook",
                "not a url")) {
            assertThatThrownBy(() -> strict.checked(url), url).isInstanceOf(DestinationRefused.class);
        }
        assertThatThrownBy(() -> strict.checked("http://hooks.example.org/hook"))
                .hasMessageContaining("must be https");
    }
}
