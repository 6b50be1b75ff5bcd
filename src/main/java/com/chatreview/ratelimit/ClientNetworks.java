package com.chatreview.ratelimit;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * What a client address's budgets (its failures, its logins, its look-ups) are counted for: an IPv4 address itself;
 * an IPv6 address's /64, since one host or one home is given a whole /64 and could otherwise spend 2^64 budgets
 * (an IPv4 address written as IPv6, {@code ::ffff:a.b.c.d}, is the IPv4 address). Every per-address key of a
 * quota is made here.
 */
public final class ClientNetworks {

    private ClientNetworks() {}

    /** The key of the address's network: {@code 192.0.2.7}, or {@code 2001:db8:1:2::/64}. */
    public static String of(String clientAddress) {
        String literal = clientAddress.strip();
        if (literal.startsWith("[") && literal.endsWith("]")) {
            literal = literal.substring(1, literal.length() - 1);
        }
        if (literal.indexOf(':') < 0 || !literal.matches("[0-9A-Fa-f:.]+(%[\\w.-]+)?")) {
            return literal; // IPv4, or not an address at all: counted as it is
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(literal); // a literal: no name is looked up
        } catch (UnknownHostException | SecurityException e) {
            return literal;
        }
        if (!(address instanceof Inet6Address)) {
            return address.getHostAddress();
        }
        byte[] bytes = address.getAddress();
        StringBuilder network = new StringBuilder();
        for (int i = 0; i < 8; i += 2) {
            network.append(Integer.toHexString(((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff)))
                    .append(':');
        }
        return network.append(":/64").toString();
    }
}
