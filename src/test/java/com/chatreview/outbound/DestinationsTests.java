package com.chatreview.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
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
                new Destinations.Policy(allowHttp, allowPrivate, "ALLOW_HTTP", "ALLOW_PRIVATE", "https://x.example/"),
                host -> {
                    String address = DNS.get(host);
                    if (address != null) {
                        return List.of(InetAddress.getByName(address));
                    }
                    if (host.matches("[0-9.]+|\\[?[0-9a-f:.]+]?")) {
                        return List.of(InetAddress.getByName(host));
                    }
                    throw new UnknownHostException(host);
                });
    }

    /**
     * A name with a public and a private address is refused, whichever comes first: a client picks any of them, and
     * one that is inside is enough. The connecting resolver refuses it too, as the connection is made.
     */
    @Test
    void aHostResolvingToAPublicAndAPrivateAddressIsRefused() throws Exception {
        for (List<String> addresses :
                List.of(List.of("93.184.216.34", "10.1.2.3"), List.of("169.254.169.254", "93.184.216.34"))) {
            Destinations mixed = new Destinations(
                    new Destinations.Policy(false, false, "ALLOW_HTTP", "ALLOW_PRIVATE", "https://x.example/"),
                    host -> {
                        List<InetAddress> resolved = new java.util.ArrayList<>();
                        for (String address : addresses) {
                            resolved.add(InetAddress.getByName(address));
                        }
                        return resolved;
                    });
            assertThatThrownBy(() -> mixed.checked("url", "https://split.example.org/hook"), addresses.toString())
                    .isInstanceOf(DestinationRefused.class);
            java.util.concurrent.CompletableFuture<List<java.net.InetSocketAddress>> connecting =
                    new java.util.concurrent.CompletableFuture<>();
            mixed.connectingResolver()
                    .resolve("split.example.org", 443, Map.of(), new org.eclipse.jetty.util.Promise<>() {
                        @Override
                        public void succeeded(List<java.net.InetSocketAddress> result) {
                            connecting.complete(result);
                        }

                        @Override
                        public void failed(Throwable failure) {
                            connecting.completeExceptionally(failure);
                        }
                    });
            assertThat(connecting)
                    .as("the connection to " + addresses + " is not made")
                    .failsWithin(java.time.Duration.ofSeconds(5));
        }
    }

    @Test
    void aPublicHttpsUrlIsAccepted() {
        assertThat(destinations(false, false).checked("url", "https://hooks.example.org/chat-review?x=1"))
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
            assertThatThrownBy(() -> strict.checked("url", url), url)
                    .isInstanceOf(DestinationRefused.class)
                    .satisfies(refused -> assertThat(
                                    ((DestinationRefused) refused).code().name())
                            .isEqualTo("VALIDATION_ERROR"));
        }
        assertThatThrownBy(() -> strict.checked("url", "https://inside.example.org/hook"))
                .hasMessageContaining("10.1.2.3");
    }

    /**
     * The class, not the cases: every block the IANA special-purpose registries mark as not globally reachable, and
     * every IPv6 form that carries such an IPv4 address, is refused; the public neighbours of each are not.
     */
    @Test
    void specialPurposeAddressesAndIpv6FormsThatCarryThemAreRefused() {
        Destinations strict = destinations(false, false);
        for (String host : List.of(
                "[::127.0.0.1]", // IPv4-compatible loopback
                "[::ffff:169.254.169.254]", // IPv4-mapped metadata address
                "[::ffff:0:a9fe:a9fe]", // IPv4-translated metadata address
                "[64:ff9b::a9fe:a9fe]", // NAT64 of the metadata address
                "[64:ff9b::10.0.0.1]",
                "[64:ff9b:1::8.8.8.8]", // local-use NAT64: not global whatever it carries
                "[2002:a9fe:a9fe::]", // 6to4 of the metadata address
                "[2002:7f00:1::1]",
                "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", // Teredo
                "[2001:db8::1]",
                "[3fff::1]",
                "[100::1]",
                "[5f00::1]",
                "[fe80::1]",
                "[fec0::1]",
                "[ff02::1]",
                "[::]",
                "198.18.0.1",
                "198.19.255.255",
                "240.0.0.1",
                "255.255.255.255",
                "224.0.0.1",
                "192.0.0.8",
                "192.0.2.1",
                "198.51.100.1",
                "203.0.113.1",
                "192.88.99.1",
                "172.31.255.255",
                "100.127.255.255")) {
            assertThatThrownBy(() -> strict.checked("url", "https://" + host + "/hook"), host)
                    .isInstanceOf(DestinationRefused.class);
        }
        for (String host : List.of(
                "8.8.8.8",
                "198.17.255.255",
                "198.20.0.1",
                "172.32.0.1",
                "100.128.0.1",
                "223.255.255.255",
                "[2606:4700:4700::1111]",
                "[64:ff9b::8.8.8.8]", // NAT64 of a public address
                "[2002:808:808::1]", // 6to4 of a public address
                "[2001:4860:4860::8888]")) {
            assertThat(strict.checked("url", "https://" + host + "/hook"))
                    .as(host)
                    .isNotNull();
        }
    }

    @Test
    void theOperatorMayAllowPrivateNetworksAndPlainHttp() {
        Destinations open = destinations(true, true);
        assertThat(open.checked("url", "http://127.0.0.1:8080/hook")).hasToString("http://127.0.0.1:8080/hook");
        assertThat(open.checked("url", "https://inside.example.org/hook")).isNotNull();
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
            assertThatThrownBy(() -> strict.checked("url", url), url).isInstanceOf(DestinationRefused.class);
        }
        assertThatThrownBy(() -> strict.checked("url", "http://hooks.example.org/hook"))
                .hasMessageContaining("must be https");
    }
}
