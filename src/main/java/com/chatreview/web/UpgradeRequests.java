package com.chatreview.web;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Gives every WebSocket upgrade what Jetty's upgrade and Spring's handshake can read, so that whatever its bytes the
 * upgrade succeeds and the access refuses it with an error event and a close code (docs/api.md, The WebSocket):
 *
 * <ul>
 *   <li>A query that Jetty and {@link java.net.URI} both accept; the query as it was sent is kept for the strict
 *       reading ({@link QueryStrings#sentQuery}). Jetty decodes an upgrade's query parameters eagerly (its
 *       {@code CompletedUpgradeRequest}), strictly, and refused the whole upgrade with an HTTP 400 when one of them
 *       was not percent-encoded UTF-8 ({@code %C0%80}, {@code %ED%A0%80}, {@code %}); and after the upgrade,
 *       {@code UpgradeRequest.getRequestURI()} builds a {@link java.net.URI}, which throws for query characters the
 *       request parser let through ({@code |}, {@code "}, {@code {}, {@code ^}, non-ASCII), inside Spring's
 *       {@code JettyWebSocketHandlerAdapter}, and the connection was closed 1011. Such characters are
 *       percent-encoded (as UTF-8) and a pair whose name or value does not decode is left out of the query Jetty
 *       sees.
 *   <li>An {@code Origin} that parses as a URI. Spring's origin check ({@code OriginHandshakeInterceptor}, run on
 *       every handshake) parses it and threw for one that does not (a raw byte 0xFF in its host,
 *       {@code https://a b}): a 500. No browser sends such an origin; it is taken for the opaque origin
 *       {@code null}, which a tenant's {@code allowed_origins} never lists.
 * </ul>
 */
@Component
class UpgradeRequests implements JettyServerCustomizer, HttpConfiguration.Customizer {

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
        if (!request.getHeaders().contains(HttpHeader.UPGRADE)) {
            return request;
        }
        String query = request.getHttpURI().getQuery();
        String safe = query == null ? null : safe(query);
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        boolean opaqueOrigin = origin != null && !parsable(origin);
        if (Objects.equals(safe, query) && !opaqueOrigin) {
            return request;
        }
        request.setAttribute(QueryStrings.SENT_QUERY, query);
        HttpURI uri = HttpURI.build(request.getHttpURI())
                .query(safe == null || safe.isEmpty() ? null : safe)
                .asImmutable();
        HttpFields headers = opaqueOrigin
                ? HttpFields.build(request.getHeaders())
                        .put(HttpHeader.ORIGIN, "null")
                        .asImmutable()
                : request.getHeaders();
        return new Request.Wrapper(request) {
            @Override
            public HttpURI getHttpURI() {
                return uri;
            }

            @Override
            public HttpFields getHeaders() {
                return headers;
            }
        };
    }

    /** Whether Spring's handshake can parse the origin (as {@code WebUtils.isSameOrigin} does). */
    private static boolean parsable(String origin) {
        try {
            UriComponentsBuilder.fromUriString(origin).build();
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
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
