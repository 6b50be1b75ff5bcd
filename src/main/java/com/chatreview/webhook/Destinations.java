package com.chatreview.webhook;

import com.chatreview.webhook.WebhookErrors.DestinationRefused;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * Where a delivery may go: an absolute {@code https} URL (or {@code http} if the operator allows it) whose host
 * resolves to public addresses only, unless the operator allows private networks. Checked when an endpoint is
 * registered or changed, and again on every delivery (a name may resolve elsewhere later).
 */
final class Destinations {

    private static final String FIX_SCHEME = "Register an absolute https URL, such as https://lms.example.org/hooks.";
    private static final String FIX_PRIVATE = "Register a URL whose host resolves to a public address; the operator"
            + " may allow private networks with WEBHOOK_ALLOW_PRIVATE_NETWORKS.";

    private final WebhookSettings settings;
    private final Resolver resolver;

    /** Resolves a host name to its addresses (the system's resolver; tests give their own). */
    interface Resolver {
        List<InetAddress> resolve(String host) throws UnknownHostException;
    }

    Destinations(WebhookSettings settings, Resolver resolver) {
        this.settings = settings;
        this.resolver = resolver;
    }

    Destinations(WebhookSettings settings) {
        this(settings, host -> List.of(InetAddress.getAllByName(host)));
    }

    /** The URL, checked; throws {@link DestinationRefused} saying why it may not receive deliveries. */
    URI checked(String url) {
        URI uri = parsed(url);
        addresses(uri);
        return uri;
    }

    /** The addresses a delivery to the URI may connect to: every one its host resolves to, each allowed. */
    List<InetAddress> addresses(URI uri) {
        List<InetAddress> addresses;
        try {
            addresses = resolver.resolve(uri.getHost());
        } catch (UnknownHostException e) {
            throw new DestinationRefused(
                    uri.toString(), "its host does not resolve", "Register a URL whose host name resolves.");
        }
        if (!settings.allowPrivateNetworks()) {
            for (InetAddress address : addresses) {
                if (isPrivate(address)) {
                    throw new DestinationRefused(
                            uri.toString(),
                            "its host resolves to " + address.getHostAddress()
                                    + ", an address of a private network, loopback or link-local range",
                            FIX_PRIVATE);
                }
            }
        }
        return addresses;
    }

    private URI parsed(String url) {
        if (url == null || url.isBlank()) {
            throw new DestinationRefused(String.valueOf(url), "is required", FIX_SCHEME);
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new DestinationRefused(url, "is not a URL", FIX_SCHEME);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
        if (!uri.isAbsolute() || uri.getHost() == null || uri.getHost().isBlank()) {
            throw new DestinationRefused(url, "must be an absolute URL with a host", FIX_SCHEME);
        }
        if (uri.getRawUserInfo() != null) {
            throw new DestinationRefused(
                    url, "must not carry credentials", "Remove the user:password@ part; deliveries are signed.");
        }
        if (!scheme.equals("https") && !(scheme.equals("http") && settings.allowHttp())) {
            throw new DestinationRefused(
                    url,
                    settings.allowHttp() ? "must be http or https" : "must be https",
                    settings.allowHttp()
                            ? FIX_SCHEME
                            : FIX_SCHEME + " The operator may allow http with WEBHOOK_ALLOW_HTTP.");
        }
        return uri;
    }

    /**
     * Resolves a delivery's host to the addresses it may connect to, as the HTTP client connects: a name resolved
     * here is the address connected to, so it cannot point elsewhere between the check and the connection (DNS
     * rebinding).
     */
    SocketAddressResolver connectingResolver() {
        return (host, port, context, promise) -> {
            try {
                List<InetSocketAddress> addresses = new ArrayList<>();
                for (InetAddress address : addresses(URI.create("https://" + bracketed(host) + "/"))) {
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

    /** Loopback, link-local, private (RFC 1918, carrier-grade NAT), unique-local, unspecified or multicast. */
    static boolean isPrivate(InetAddress address) {
        if (address.isLoopbackAddress()
                || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()
                || address.isAnyLocalAddress()
                || address.isMulticastAddress()) {
            return true;
        }
        byte[] bytes = address.getAddress();
        if (address instanceof Inet6Address) {
            return (bytes[0] & 0xfe) == 0xfc; // fc00::/7, unique local
        }
        int first = bytes[0] & 0xff;
        int second = bytes[1] & 0xff;
        return first == 0 // 0.0.0.0/8, "this network"
                || (first == 100 && second >= 64 && second <= 127) // 100.64.0.0/10, carrier-grade NAT
                || (first == 192 && second == 0 && (bytes[2] & 0xff) == 0); // 192.0.0.0/24, IETF protocol assignments
    }
}
