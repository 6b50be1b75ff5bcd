/**
 * Real-time chat over WebSocket ({@code /ws/chat}): connections and their limits, the per-chat reply queue that
 * answers frames one at a time in arrival order, and the fan-out of a chat's events, each with its {@code seq},
 * to every connection open on it. Registry, queue and fan-out are interfaces with in-process implementations.
 *
 * <p>Why it is the largest module (about a fifth of the code): each part that must hold across nodes (the
 * connection registry, the reply queue, the fan-out, the streams in progress, the owed replies and their takeover)
 * comes twice, in-process for a single node and on Redis for a cluster, behind one interface; split apart, the
 * two halves of one protocol would each need the other's package-private types (a {@code Connection}, a
 * {@code ServerEvent}). {@code RealtimeConfiguration.Parts} is where the choice between them is made.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Realtime")
package com.chatreview.realtime;
