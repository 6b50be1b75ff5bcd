package com.chatreview.web;

import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.stereotype.Component;

/**
 * Gives every WebSocket upgrade a query that {@link java.net.URI} accepts. Jetty's request parser lets through
 * query characters that a URI may not hold ({@code |}, {@code "}, {@code {}, {@code ^}, non-ASCII) and a {@code %}
 * without two hex digits; after the upgrade, Jetty's {@code UpgradeRequest.getRequestURI()} builds a
 * {@code java.net.URI} of the request, which throws for them, inside Spring's {@code JettyWebSocketHandlerAdapter}
 * before any handler runs, and the connection is closed 1011. Here, before anything reads the request, such
 * characters are percent-encoded (as UTF-8) and a name or value with a broken escape becomes {@code %FF}, which no
 * strict decoder accepts ({@link QueryStrings}), so the access refuses it with its own error event and close code.
 * A query of only such characters is left exactly as it was.
 */
@Component
class UpgradeQueries implements JettyServerCustomizer, HttpConfiguration.Customizer {

    private static final String UNDECODABLE = "%FF";

    @Override
    public void customize(Server server) {
        for (Connector connector : server.getConnectors()) {
            for (Object factory : connector.getConnectionFactories()) {
                if (factory instanceof HttpConfiguration.ConnectionFactory http) {
                    http.getHttpConfiguration().addCustomizer(this);
                }
            }
        }
    }

    @Override
    public Request customize(Request request, HttpFields.Mutable responseHeaders) {
        String query = request.getHttpURI().getQuery();
        if (query == null || !request.getHeaders().contains(HttpHeader.UPGRADE)) {
            return request;
        }
        String safe = safe(query);
        if (safe.equals(query)) {
            return request;
        }
        HttpURI uri = HttpURI.build(request.getHttpURI()).query(safe).asImmutable();
        return new Request.Wrapper(request) {
            @Override
            public HttpURI getHttpURI() {
                return uri;
            }
        };
    }

    /** The query with each name and value made URI-safe; {@code &} and the first {@code =} of a pair kept. */
    static String safe(String query) {
        StringBuilder safe = new StringBuilder(query.length() + 16);
        String[] pairs = query.split("&", -1);
        for (int i = 0; i < pairs.length; i++) {
            if (i > 0) {
                safe.append('&');
            }
            int equals = pairs[i].indexOf('=');
            if (equals < 0) {
                safe.append(component(pairs[i]));
            } else {
                safe.append(component(pairs[i].substring(0, equals)))
                        .append('=')
                        .append(component(pairs[i].substring(equals + 1)));
            }
        }
        return safe.toString();
    }

    private static String component(String raw) {
        StringBuilder safe = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length() || !hex(raw.charAt(i + 1)) || !hex(raw.charAt(i + 2))) {
                    return UNDECODABLE;
                }
                safe.append(raw, i, i + 3);
                i += 2;
            } else if (allowed(c)) {
                safe.append(c);
            } else {
                int codePoint = raw.codePointAt(i);
                int length = Character.charCount(codePoint);
                if (Character.isSurrogate(c) && length == 1) {
                    return UNDECODABLE;
                }
                for (byte b : raw.substring(i, i + length).getBytes(StandardCharsets.UTF_8)) {
                    safe.append('%')
                            .append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                            .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
                }
                i += length - 1;
            }
        }
        return safe.toString();
    }

    /** RFC 3986 unreserved, sub-delims but {@code &}, {@code :}, {@code @}, {@code /}, {@code ?}. */
    private static boolean allowed(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || "-._~!$'()*+,;=:@/?".indexOf(c) >= 0;
    }

    private static boolean hex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
