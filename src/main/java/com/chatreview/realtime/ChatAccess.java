package com.chatreview.realtime;

/**
 * A way into a chat over WebSocket: which path it is served at, and who a new connection on that path acts for.
 * {@code /ws/chat} takes the tenant's API key and a user id; another module may add its own way in (the chat page
 * takes the chat's link or an embed token). Every way in speaks the same events through the same handler: seq,
 * resume, exactly-once sends, limits and the reply queue do not depend on how a connection got in.
 */
public interface ChatAccess {

    /** The WebSocket path, such as {@code /ws/chat}. */
    String path();

    /** Decided right after the upgrade; a refusal is told as an {@code error} event, then the connection closes. */
    Admission admit(ConnectionRequest request);
}
