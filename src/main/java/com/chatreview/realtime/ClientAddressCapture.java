package com.chatreview.realtime;

import java.util.Map;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.server.HandshakeInterceptor;

/**
 * Keeps the client's address of the handshake request, as REST sees it (a trusted proxy's {@code X-Forwarded-For}
 * applied), for the connection: the WebSocket session itself knows only the socket's peer.
 */
final class ClientAddressCapture implements HandshakeInterceptor {

    static final String ATTRIBUTE = ClientAddressCapture.class.getName();

    @Override
    public boolean beforeHandshake(
            ServerHttpRequest request,
            ServerHttpResponse response,
            WebSocketHandler handler,
            Map<String, Object> attributes) {
        if (request instanceof ServletServerHttpRequest servlet) {
            attributes.put(ATTRIBUTE, servlet.getServletRequest().getRemoteAddr());
        } else if (request.getRemoteAddress() != null) {
            attributes.put(ATTRIBUTE, request.getRemoteAddress().getAddress().getHostAddress());
        }
        return true;
    }

    @Override
    public void afterHandshake(
            ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler, Exception exception) {}
}
