package com.chatreview.realtime;

import com.chatreview.conversation.ErrorCode;
import com.chatreview.tenancy.ApiKeyRevoked;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Closes this node's connections opened with a key that was just revoked, with an {@code AUTH_ERROR} first. */
@Component
class RevokedKeyConnections {

    private final ConnectionRegistry connections;

    RevokedKeyConnections(ConnectionRegistry connections) {
        this.connections = connections;
    }

    @EventListener
    void keyRevoked(ApiKeyRevoked revoked) {
        for (Connection connection : connections.all()) {
            if (revoked.apiKeyId().equals(connection.apiKeyId)) {
                connection.sendDirect(ErrorCode.AUTH_ERROR.event("The API key was revoked"));
                connection.close(ChatSocketHandler.UNAUTHORIZED);
            }
        }
    }
}
