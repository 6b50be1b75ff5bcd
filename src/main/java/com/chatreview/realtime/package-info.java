/**
 * Real-time chat over WebSocket ({@code /ws/chat}): connections and their limits, the per-chat reply queue that
 * answers frames one at a time in arrival order, and the fan-out of a chat's events, each with its {@code seq},
 * to every connection open on it. Registry, queue and fan-out are interfaces with in-process implementations.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Realtime")
package com.chatreview.realtime;
