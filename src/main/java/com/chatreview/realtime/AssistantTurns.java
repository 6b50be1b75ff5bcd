package com.chatreview.realtime;

import com.chatreview.assistant.AssistantFailure;
import com.chatreview.chat.ChatErrors.ChatNotFound;
import com.chatreview.chat.ChatMessage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.springframework.stereotype.Component;

/**
 * Runs turns the service starts itself (a homework review) the way a client's frame is answered: in the chat's
 * lane, so they never interleave with the chat's other replies, with the same events, {@code seq} numbers and
 * resume support on every connection open on the chat. A closed chat still takes such a turn: closing a chat
 * stops its clients' frames, not the service's own work.
 */
@Component
public class AssistantTurns {

    private final ReplyQueue queue;
    private final Replies replies;

    AssistantTurns(ReplyQueue queue, Replies replies) {
        this.queue = queue;
        this.replies = replies;
    }

    /**
     * Runs the turn and waits for it. Every failure has been told to the chat's connections ({@code AI_ERROR} or
     * {@code INTERNAL_ERROR}) before it is thrown here; the question stays stored, the answer is not.
     *
     * @return the stored answer
     * @throws ChatNotFound when the chat does not exist (any more)
     * @throws AssistantFailure when the assistant could not answer
     * @throws InterruptedException when the wait is interrupted; the turn itself goes on in its lane
     */
    public ChatMessage run(AssistantTurn turn) throws InterruptedException {
        CompletableFuture<ChatMessage> done = new CompletableFuture<>();
        queue.submit(turn.chatId(), () -> {
            try {
                done.complete(replies.serviceTurn(turn));
            } catch (RuntimeException | Error failure) {
                done.completeExceptionally(failure);
            }
        });
        try {
            return done.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw (Error) e.getCause();
        }
    }
}
