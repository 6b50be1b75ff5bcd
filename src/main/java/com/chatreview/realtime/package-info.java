/**
 * The WebSocket ({@code /ws/chat} and every other {@link ChatAccess} path, such as the chat page's): the handshake
 * and who a connection acts for ({@link Admission}), the caps on connections, the frames a client sends and their
 * limits, pings, revoked keys and the shutdown. A frame that passes becomes a question to the conversation module,
 * which answers it and hands every event of the chat to the connections open on it (this module's registry is its
 * {@code ChatListeners}). The registry comes in-process for a single node and on Redis for a cluster
 * ({@code RealtimeConfiguration.Parts}).
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Realtime")
package com.chatreview.realtime;
