/**
 * What the conversation must hold across nodes: the reply lanes (one reply at a time per chat), the fan-out of a
 * chat's events to the node holding each connection, the streams in progress (for a resuming client) and the
 * replies a node owes. Each is an interface with its in-process implementation (a single node) and its Redis one (a
 * cluster) side by side; {@code ClusterConfiguration} picks one.
 */
@org.jspecify.annotations.NullMarked
package com.chatreview.conversation.cluster;
