package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;
import java.util.List;

/**
 * The events of each chat's reply being generated ({@code message_stream_started} and its tokens), kept until the
 * reply is stored, so that a client resuming mid-reply gets the part it missed (docs/decisions.md). In a cluster they
 * are kept where every node reads them: a client resumes on any node, and a node taking over a dead node's turn
 * sees what that node had streamed.
 */
public interface StreamsInProgress {

    /** A reply's stream starts: whatever an earlier reply of the chat left is dropped. */
    void started(ChatId chatId, ChatEvent started);

    /** Keeps a token of the reply; never waits (a cluster's copy is written without waiting for Redis). */
    void token(ChatId chatId, ChatEvent token);

    /** The reply is stored, or its stream was told to have ended without it. */
    void ended(ChatId chatId);

    /** The events of the chat's reply in progress, in {@code seq} order; empty when none is. */
    List<ChatEvent> of(ChatId chatId);
}
