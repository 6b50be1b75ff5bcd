package com.chatreview.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** An address's budgets are its network's: an IPv4 address, an IPv6 /64. */
class ClientNetworksTests {

    @Test
    void everyAddressOfAnIpv6Slash64IsOneNetwork() {
        assertThat(ClientNetworks.of("2001:db8:1:2::1"))
                .isEqualTo(ClientNetworks.of("2001:db8:1:2:ffff:ffff:ffff:fffe"))
                .isEqualTo(ClientNetworks.of("[2001:0db8:0001:0002:0:0:0:9]"))
                .isEqualTo("2001:db8:1:2::/64");
        assertThat(ClientNetworks.of("2001:db8:1:3::1")).isNotEqualTo(ClientNetworks.of("2001:db8:1:2::1"));
        assertThat(ClientNetworks.of("0:0:0:0:0:0:0:1")).isEqualTo("0:0:0:0::/64");
    }

    @Test
    void ipv4AddressesAreTheirOwnAndIpv4WrittenAsIpv6IsIpv4() {
        assertThat(ClientNetworks.of("192.0.2.7")).isEqualTo("192.0.2.7");
        assertThat(ClientNetworks.of("192.0.2.8")).isNotEqualTo(ClientNetworks.of("192.0.2.7"));
        assertThat(ClientNetworks.of("::ffff:192.0.2.7")).isEqualTo("192.0.2.7");
    }

    @Test
    void whatIsNoAddressIsCountedAsItIsWithoutALookUp() {
        assertThat(ClientNetworks.of("unknown")).isEqualTo("unknown");
        assertThat(ClientNetworks.of("example.com")).isEqualTo("example.com");
        assertThat(ClientNetworks.of("fe80::1%1"))
                .as("a numeric zone names no interface")
                .isEqualTo("fe80:0:0:0::/64");
    }
}
