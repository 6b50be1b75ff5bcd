/**
 * The conversation: how a chat is answered, whoever listens. A client's question ({@link Conversations#ask}) or a
 * turn the service starts ({@link ServiceTurns}) runs in the chat's lane, one at a time in arrival order: the
 * question is stored and announced, the answer streams token by token and is stored, and every event takes the
 * chat's next {@code seq}. The events ({@link ServerEvent}, {@link ErrorCode}) and their JSON are this module's;
 * so is what a listener resuming missed ({@link Conversations#watch}, {@link Conversations#replayStoredAfter}).
 * Who listens ({@link ChatListeners}) and who asked ({@link Asker}) are ports the WebSocket module implements.
 *
 * <p>Each part that must hold across nodes (the lanes, the fan-out, the streams in progress, the owed replies) is an
 * interface in the {@code cluster} sub-package, with an in-process implementation for a single node and a
 * {@code Redis*} one for a cluster side by side ({@code ClusterConfiguration} picks them); the takeover of a dead
 * node's replies ({@link ReplyTakeovers}) is here, since it runs the turn engine.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Conversation")
package com.chatreview.conversation;
