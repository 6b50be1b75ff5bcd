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
 * Gives every WebSocket upgrade a query that Jetty's upgrade and {@link java.net.URI} both accept, and keeps the
 * query as it was sent for the strict reading ({@link QueryStrings#sentQuery}). Jetty decodes an upgrade's query
 * parameters eagerly (its {@code CompletedUpgradeRequest}), strictly, and refuses the whole upgrade with an HTTP
 * 400 when one of them is not percent-encoded UTF-8 ({@code %C0%80}, {@code %ED%A0%80}, {@code %}), before any
 * handler runs; and after the upgrade, {@code UpgradeRequest.getRequestURI()} builds a {@link java.net.URI}, which
 * throws for query characters the request parser let through ({@code |}, {@code "}, {@code {}, {@code ^},
 * non-ASCII), inside Spring's {@code JettyWebSocketHandlerAdapter}, and the connection is closed 1011. Here, before
 * anything reads the request, such characters are percent-encoded (as UTF-8) and a pair whose name or value does not
 * decode is left out of the query Jetty sees; the access reads the query as sent and refuses such a pair with its own
 * error event and close code (decisions §6: the upgrade always succeeds).
 */
@Component
class UpgradeQueries implements JettyServerCustomizer, HttpConfiguration.Customizer {

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
        request.setAttribute(QueryStrings.SENT_QUERY, query);
        HttpURI uri = HttpURI.build(request.getHttpURI())
                .query(safe.isEmpty() ? null : safe)
                .asImmutable();
        return new Request.Wrapper(request) {
            @Override
            public HttpURI getHttpURI() {
                return uri;
            }
        };
    }

    /**
     * The query with each name and value made URI-safe; {@code &} and the first {@code =} of a pair kept, a pair
     * whose name or value is not percent-encoded UTF-8 left out.
     */
    static String safe(String query) {
        StringBuilder safe = new StringBuilder(query.length() + 16);
        for (String pair : query.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            String value = equals < 0 ? null : pair.substring(equals + 1);
            if (QueryStrings.decode(name).isEmpty()
                    || (value != null && QueryStrings.decode(value).isEmpty())) {
                continue;
            }
            if (!safe.isEmpty()) {
                safe.append('&');
            }
            safe.append(component(name));
            if (value != null) {
                safe.append('=').append(component(value));
            }
        }
        return safe.toString();
    }

    /** A component that decodes ({@link QueryStrings#decode}), its raw characters a URI may not hold encoded. */
    private static String component(String raw) {
        StringBuilder safe = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                safe.append(raw, i, i + 3);
                i += 2;
            } else if (allowed(c)) {
                safe.append(c);
            } else {
                int length = Character.charCount(raw.codePointAt(i));
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
}
