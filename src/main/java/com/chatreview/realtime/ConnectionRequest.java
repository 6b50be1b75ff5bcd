package com.chatreview.realtime;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * What a new WebSocket connection came with: its query parameters, its handshake headers, and the client's address
 * (a trusted proxy's {@code X-Forwarded-For} applied, as on REST).
 */
public record ConnectionRequest(Map<String, List<String>> query, HttpHeaders headers, String clientAddress) {

    static ConnectionRequest of(WebSocketSession session) {
        Map<String, List<String>> query = session.getUri() == null
                ? Map.of()
                : UriComponentsBuilder.fromUri(session.getUri()).build().getQueryParams();
        Object captured = session.getAttributes().get(ClientAddressCapture.ATTRIBUTE);
        String address = captured instanceof String known ? known : "unknown";
        return new ConnectionRequest(query, session.getHandshakeHeaders(), address);
    }

    /** A value given as header or query parameter; where both come, the header wins. Blank is absent. */
    public String value(String header, String parameter) {
        String fromHeader = header == null ? null : headers.getFirst(header);
        if (fromHeader != null && !fromHeader.isBlank()) {
            return fromHeader.strip();
        }
        List<String> values = query.get(parameter);
        if (values == null || values.isEmpty() || values.getFirst() == null) {
            return null;
        }
        String value =
                URLDecoder.decode(values.getFirst(), StandardCharsets.UTF_8).strip();
        return value.isEmpty() ? null : value;
    }

    /** The {@code Origin} header a browser sends with every WebSocket handshake; {@code null} from other clients. */
    public String origin() {
        return headers.getOrigin();
    }
}
