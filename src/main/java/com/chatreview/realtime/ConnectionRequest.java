package com.chatreview.realtime;

import com.chatreview.web.QueryStrings;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.server.HandshakeInterceptor;

/**
 * What a new WebSocket connection came with: its query parameters, its handshake headers and the address it came
 * from. The query is read strictly ({@link QueryStrings}): a value that is not percent-encoded UTF-8 is "sent but
 * undecodable" ({@code null} in {@link #query}), never a guess and never an exception.
 *
 * @param clientAddress the client's address as the handshake saw it (after trusted proxies); {@code null} when
 *     unknown
 */
public record ConnectionRequest(Map<String, List<String>> query, HttpHeaders headers, String clientAddress) {

    static final String CLIENT_ADDRESS = ConnectionRequest.class.getName() + ".clientAddress";
    static final String RAW_QUERY = ConnectionRequest.class.getName() + ".rawQuery";

    static ConnectionRequest of(WebSocketSession session) {
        Map<String, Object> attributes = session.getAttributes();
        Object rawQuery = attributes.get(RAW_QUERY);
        Object address = attributes.get(CLIENT_ADDRESS);
        return new ConnectionRequest(
                QueryStrings.values(rawQuery instanceof String raw ? raw : null),
                session.getHandshakeHeaders(),
                address instanceof String client ? client : "unknown");
    }

    /** A value given as header or query parameter; where both come, the header wins. Blank is absent. */
    public @Nullable String value(@Nullable String header, String parameter) {
        String fromHeader = header == null ? null : headers.getFirst(header);
        if (fromHeader != null && !fromHeader.isBlank()) {
            return fromHeader.strip();
        }
        List<String> values = query.get(parameter);
        if (values == null || values.isEmpty() || values.getFirst() == null) {
            return null;
        }
        String value = values.getFirst().strip();
        return value.isEmpty() ? null : value;
    }

    /**
     * Whether the value {@link #value} would take comes as a query parameter that is not percent-encoded UTF-8 (an
     * invalid escape, an overlong form, an encoded surrogate): the connection names something no one can have.
     */
    public boolean undecodable(@Nullable String header, String parameter) {
        String fromHeader = header == null ? null : headers.getFirst(header);
        if (fromHeader != null && !fromHeader.isBlank()) {
            return false;
        }
        List<String> values = query.get(parameter);
        return values != null && !values.isEmpty() && values.getFirst() == null;
    }

    /** The {@code Origin} header a browser sends with every WebSocket handshake; {@code null} from other clients. */
    public @Nullable String origin() {
        return headers.getOrigin();
    }

    /**
     * Keeps, from the handshake, what the session cannot tell: the query exactly as sent (Jetty was shown a safe one,
     * and a session's URI is rebuilt from that) and the client's address as the container resolved it (behind a trusted proxy, the one it
     * reports; the socket's peer is the proxy).
     */
    static final class Capture implements HandshakeInterceptor {

        @Override
        public boolean beforeHandshake(
                ServerHttpRequest request,
                ServerHttpResponse response,
                WebSocketHandler handler,
                Map<String, Object> attributes) {
            if (request instanceof ServletServerHttpRequest servlet) {
                HttpServletRequest raw = servlet.getServletRequest();
                String sent = QueryStrings.sentQuery(raw);
                if (sent != null) {
                    attributes.put(RAW_QUERY, sent);
                }
                if (raw.getRemoteAddr() != null) {
                    attributes.put(CLIENT_ADDRESS, raw.getRemoteAddr());
                }
            }
            return true;
        }

        @Override
        public void afterHandshake(
                ServerHttpRequest request,
                ServerHttpResponse response,
                WebSocketHandler handler,
                @Nullable Exception failure) {}
    }
}
