package com.chatreview.conversation;

import com.chatreview.assistant.AssistantReply;
import com.chatreview.chat.ChatErrors.ChatNotFound;
import com.chatreview.chat.ChatMessage;
import com.chatreview.database.AfterCommit;
import java.util.concurrent.CountDownLatch;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A service turn holding its chat's lane: its question is stored and announced, its answer's stream started. The
 * caller streams the answer's tokens into it, stores the answer in its own transaction, and closes it, which frees
 * the lane; the chat gets {@code message_stream_ended} once that transaction commits, or an {@code error} event
 * naming the message id when the answer is not stored. Calls go one way: from the caller into the turn.
 */
public final class OpenTurn implements AutoCloseable {

    private final ReplyStream streaming;
    private final CountDownLatch closed = new CountDownLatch(1);

    OpenTurn(ReplyStream streaming) {
        this.streaming = streaming;
    }

    /** The id of the turn's question, stored in the chat. */
    public java.util.UUID questionId() {
        return streaming.questionId();
    }

    /** Sends the next piece of the answer to every connection on the chat. */
    public void token(String token) {
        streaming.accept(token);
    }

    /**
     * Stores the answer and counts its tokens in the caller's transaction, so that what the caller records with it
     * commits with it or not at all; the chat gets the whole answer when that transaction commits.
     *
     * @throws ChatNotFound when the chat was deleted meanwhile: the caller's transaction must roll back
     * @throws IllegalStateException outside a transaction
     */
    public ChatMessage store(AssistantReply answer) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            throw new IllegalStateException("An answer is stored in the caller's transaction, and there is none");
        }
        try {
            streaming.beforeStoring();
            ChatMessage stored = streaming.store(answer);
            AfterCommit.run(() -> streaming.ended(stored, answer));
            return stored;
        } catch (RuntimeException failure) {
            streaming.failed(failure);
            throw failure;
        }
    }

    /**
     * The answer will not be stored, because of {@code cause}: the chat is told why (an {@code AI_ERROR} for an
     * assistant's failure, nothing for a deleted chat). Only the first call counts, and none after the answer is
     * stored.
     */
    public void failed(RuntimeException cause) {
        streaming.failed(cause);
    }

    /** Frees the chat's lane; an answer neither stored nor failed is told to the chat as an internal error. */
    @Override
    public void close() {
        try {
            streaming.failed(new IllegalStateException("The turn was closed before its answer was stored"));
        } finally {
            closed.countDown();
        }
    }

    /** The lane's side: the lane is the turn's until the caller closes it. */
    void awaitClosed() {
        try {
            closed.await();
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
    }
}
