package com.chatreview.conversation;

import java.util.List;
import java.util.UUID;

/**
 * The events of each chat's reply being generated ({@code message_stream_started} and its tokens), kept until the
 * reply is stored, so that a client resuming mid-reply gets the part it missed (docs/decisions.md). In a cluster they
 * are kept where every node reads them: a client resumes on any node, and a node taking over a dead node's turn
 * sees what that node had streamed.
 */
interface StreamsInProgress {

    /** A reply's stream starts: whatever an earlier reply of the chat left is dropped. */
    void started(UUID chatId, ChatEvent started);

    void token(UUID chatId, ChatEvent token);

    /** The reply is stored, or its stream was told to have ended without it. */
    void ended(UUID chatId);

    /** The events of the chat's reply in progress, in {@code seq} order; empty when none is. */
    List<ChatEvent> of(UUID chatId);
}
