package com.chatreview.realtime;

import java.nio.ByteBuffer;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.adapter.NativeWebSocketSession;

/**
 * A WebSocket's own sends, which never block: each frame is queued in order behind those before it and written by
 * the server as the client takes them; its callback is told when it was written or failed. Jetty writes what it can
 * at once on the sending thread, and gathers frames that wait into one write.
 */
interface WebSocketSends {

    void text(String text, Callback sent);

    void ping(Callback sent);

    /** A close frame, after the frames queued before it. */
    void close(CloseStatus status, Callback sent);

    /** Drops the connection at once, with no close handshake. */
    void disconnect();

    boolean isOpen();

    /** The sends of a WebSocket session of the server the service runs on (Jetty). */
    static WebSocketSends of(WebSocketSession session) {
        if (session instanceof NativeWebSocketSession nativeSession
                && nativeSession.getNativeSession() instanceof Session jetty) {
            return new JettySends(jetty);
        }
        throw new IllegalStateException("The service's WebSockets run on Jetty; this session is " + session);
    }

    record JettySends(Session jetty) implements WebSocketSends {

        private static final ByteBuffer NO_PAYLOAD = ByteBuffer.allocate(0).asReadOnlyBuffer();

        @Override
        public void text(String text, Callback sent) {
            jetty.sendText(text, sent);
        }

        @Override
        public void ping(Callback sent) {
            jetty.sendPing(NO_PAYLOAD.duplicate(), sent);
        }

        @Override
        public void close(CloseStatus status, Callback sent) {
            jetty.close(status.getCode(), status.getReason(), sent);
        }

        @Override
        public void disconnect() {
            jetty.disconnect();
        }

        @Override
        public boolean isOpen() {
            return jetty.isOpen();
        }
    }
}
