package com.chatreview.outbound;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * Where the service may connect on a tenant's word (a webhook endpoint, an LMS's URLs): an absolute {@code https} URL
 * (or {@code http} if the operator allows it) whose host resolves to public addresses only, unless the operator allows
 * private networks. Checked when the URL is registered or changed, and again on every connection (a name may resolve
 * elsewhere later): a client that connects through {@link #connectingResolver()} connects only to checked addresses.
 */
public final class Destinations {

    /**
     * What the operator allows, and the settings that allow it (named in the fixes of refusals).
     *
     * @param exampleUrl a URL of the kind expected, for the fix of a refusal
     */
    public record Policy(
            boolean allowHttp,
            boolean allowPrivateNetworks,
            String allowHttpSetting,
            String allowPrivateNetworksSetting,
            String exampleUrl) {}

    private final Policy policy;
    private final Resolver resolver;

    /** Resolves a host name to its addresses (the system's resolver; tests give their own). */
    public interface Resolver {
        List<InetAddress> resolve(String host) throws UnknownHostException;
    }

    public Destinations(Policy policy, Resolver resolver) {
        this.policy = policy;
        this.resolver = resolver;
    }

    public Destinations(Policy policy) {
        this(policy, host -> List.of(InetAddress.getAllByName(host)));
    }

    /** The URL, checked; throws {@link DestinationRefused} naming the field and saying why it is refused. */
    public URI checked(String field, String url) {
        URI uri = parsed(field, url);
        addresses(field, uri);
        return uri;
    }

    /**
     * The URL, its form checked (absolute, the scheme allowed, no credentials) but its host not resolved: for a client
     * whose connections resolve through {@link #connectingResolver()}, which checks the addresses.
     */
    public URI checkedForm(String field, String url) {
        return parsed(field, url);
    }

    /** The addresses a connection to the URI may go to: every one its host resolves to, each allowed. */
    public List<InetAddress> addresses(String field, URI uri) {
        List<InetAddress> addresses;
        try {
            addresses = resolver.resolve(uri.getHost());
        } catch (UnknownHostException e) {
            throw new DestinationRefused(
                    field, uri.toString(), "its host does not resolve", "Register a URL whose host name resolves.");
        }
        if (!policy.allowPrivateNetworks()) {
            for (InetAddress address : addresses) {
                if (isPrivate(address)) {
                    throw new DestinationRefused(
                            field,
                            uri.toString(),
                            "its host resolves to " + address.getHostAddress()
                                    + ", an address of a private network, loopback or link-local range",
                            "Register a URL whose host resolves to a public address; the operator may allow"
                                    + " private networks with " + policy.allowPrivateNetworksSetting() + ".");
                }
            }
        }
        return addresses;
    }

    private URI parsed(String field, String url) {
        String fixScheme = "Register an absolute https URL, such as " + policy.exampleUrl() + ".";
        if (url == null || url.isBlank()) {
            throw new DestinationRefused(field, String.valueOf(url), "is required", fixScheme);
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new DestinationRefused(field, url, "is not a URL", fixScheme);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
        if (!uri.isAbsolute() || uri.getHost() == null || uri.getHost().isBlank()) {
            throw new DestinationRefused(field, url, "must be an absolute URL with a host", fixScheme);
        }
        if (uri.getRawUserInfo() != null) {
            throw new DestinationRefused(
                    field, url, "must not carry credentials", "Remove the user:password@ part from the URL.");
        }
        if (!scheme.equals("https") && !(scheme.equals("http") && policy.allowHttp())) {
            throw new DestinationRefused(
                    field,
                    url,
                    policy.allowHttp() ? "must be http or https" : "must be https",
                    policy.allowHttp()
                            ? fixScheme
                            : fixScheme + " The operator may allow http with " + policy.allowHttpSetting() + ".");
        }
        return uri;
    }

    /**
     * Resolves a host to the addresses it may connect to, as a Jetty HTTP client connects: a name resolved here is
     * the address connected to, so it cannot point elsewhere between the check and the connection (DNS rebinding).
     * A refusal fails the connection with {@link DestinationRefused}.
     */
    public SocketAddressResolver connectingResolver() {
        return (host, port, context, promise) -> {
            try {
                List<InetSocketAddress> addresses = new ArrayList<>();
                for (InetAddress address : addresses("url", URI.create("https://" + bracketed(host) + "/"))) {
                    addresses.add(new InetSocketAddress(address, port));
                }
                promise.succeeded(addresses);
            } catch (RuntimeException refused) {
                promise.failed(refused);
            }
        };
    }

    private static String bracketed(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /**
     * IPv4 ranges the IANA IPv4 special-purpose address registry marks as not globally reachable (whole blocks even
     * where a single address in them is reachable: no webhook receiver lives there), and multicast.
     */
    private static final List<Range> NOT_GLOBAL_V4 = Range.all(
            "0.0.0.0/8", // "this network"
            "10.0.0.0/8", // private
            "100.64.0.0/10", // carrier-grade NAT
            "127.0.0.0/8", // loopback
            "169.254.0.0/16", // link-local, cloud metadata services
            "172.16.0.0/12", // private
            "192.0.0.0/24", // IETF protocol assignments
            "192.0.2.0/24", // documentation
            "192.88.99.0/24", // 6to4 relay anycast, deprecated
            "192.168.0.0/16", // private
            "198.18.0.0/15", // benchmarking
            "198.51.100.0/24", // documentation
            "203.0.113.0/24", // documentation
            "224.0.0.0/4", // multicast
            "240.0.0.0/4", // reserved, and the limited broadcast 255.255.255.255
            "255.255.255.255/32");

    /** The same of the IANA IPv6 special-purpose address registry, with multicast and deprecated site-local. */
    private static final List<Range> NOT_GLOBAL_V6 = Range.all(
            "::/128", // unspecified
            "::1/128", // loopback
            "::ffff:0:0/96", // IPv4-mapped
            "64:ff9b:1::/48", // local-use IPv4/IPv6 translation
            "100::/64", // discard-only
            "100:0:0:1::/64", // dummy prefix
            "2001::/23", // IETF protocol assignments: Teredo, benchmarking, ORCHID...
            "2001:db8::/32", // documentation
            "3fff::/20", // documentation
            "5f00::/16", // segment routing
            "fc00::/7", // unique local
            "fe80::/10", // link-local
            "fec0::/10", // site-local, deprecated
            "ff00::/8"); // multicast

    /** IPv6 ranges that carry an IPv4 address, and where in the address it is: that address must be global too. */
    private static final List<Embedding> EMBEDDING = List.of(
            new Embedding(Range.of("::/96"), 12), // IPv4-compatible, deprecated
            new Embedding(Range.of("::ffff:0:0:0/96"), 12), // IPv4-translated (SIIT)
            new Embedding(Range.of("64:ff9b::/96"), 12), // NAT64, well-known prefix
            new Embedding(Range.of("2002::/16"), 2)); // 6to4

    /**
     * Not an address the service may connect to on a tenant's word: one the IANA special-purpose registries mark as not globally reachable
     * (private, loopback, link-local, documentation, benchmarking, reserved...), multicast, or an IPv6 address that
     * carries such an IPv4 address (NAT64, 6to4, IPv4-compatible or -translated).
     */
    public static boolean isPrivate(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length == 4) {
            return NOT_GLOBAL_V4.stream().anyMatch(range -> range.contains(bytes));
        }
        if (NOT_GLOBAL_V6.stream().anyMatch(range -> range.contains(bytes))) {
            return true;
        }
        for (Embedding embedding : EMBEDDING) {
            if (embedding.range().contains(bytes)) {
                byte[] v4 = Arrays.copyOfRange(bytes, embedding.offset(), embedding.offset() + 4);
                return NOT_GLOBAL_V4.stream().anyMatch(range -> range.contains(v4));
            }
        }
        return false;
    }

    /** An address block: its first address and the number of leading bits every address in it shares. */
    private record Range(byte[] network, int bits) {

        static Range of(String cidr) {
            int slash = cidr.indexOf('/');
            String literal = cidr.substring(0, slash);
            byte[] network;
            try {
                // a literal: no name is looked up
                network = InetAddress.getByName(literal).getAddress();
            } catch (UnknownHostException e) {
                throw new IllegalStateException("Not an address block: " + cidr, e);
            }
            if (literal.contains(":") && network.length == 4) {
                // Java reads an IPv4-mapped literal as the IPv4 address; the block is of IPv6 addresses
                byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xff;
                mapped[11] = (byte) 0xff;
                System.arraycopy(network, 0, mapped, 12, 4);
                network = mapped;
            }
            return new Range(network, Integer.parseInt(cidr.substring(slash + 1)));
        }

        static List<Range> all(String... cidrs) {
            return Arrays.stream(cidrs).map(Range::of).toList();
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    private record Embedding(Range range, int offset) {}
}
