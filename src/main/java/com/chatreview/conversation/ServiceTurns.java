package com.chatreview.conversation;

import com.chatreview.conversation.cluster.ReplyQueue;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.springframework.stereotype.Component;

/**
 * Opens turns the service starts itself (a homework review) in the chat's lane, so that they never interleave
 * with the chat's other replies, with the same events, {@code seq} numbers and resume support on every connection
 * open on the chat. A closed chat still takes such a turn: closing a chat stops its clients' frames, not the
 * service's own work.
 */
@Component
public class ServiceTurns {

    private final ReplyQueue queue;
    private final Replies replies;

    ServiceTurns(ReplyQueue queue, Replies replies) {
        this.queue = queue;
        this.replies = replies;
    }

    /**
     * Waits for the chat's lane, stores and announces the turn's question and starts its answer's stream. The
     * caller must close the turn it gets (it holds the lane until then).
     *
     * @return empty when the chat does not exist (any more)
     * @throws InterruptedException when the wait is interrupted; no turn is left open then
     */
    public Optional<OpenTurn> open(ServiceTurn turn) throws InterruptedException {
        CompletableFuture<Optional<OpenTurn>> opened = new CompletableFuture<>();
        queue.submit(turn.chatId(), () -> {
            Optional<OpenTurn> open;
            try {
                open = replies.openServiceTurn(turn).map(OpenTurn::new);
            } catch (RuntimeException | Error failure) {
                opened.completeExceptionally(failure);
                return;
            }
            if (!opened.complete(open)) {
                open.ifPresent(OpenTurn::close); // the caller stopped waiting
                return;
            }
            open.ifPresent(OpenTurn::awaitClosed);
        });
        try {
            return opened.get();
        } catch (InterruptedException stopping) {
            if (!opened.cancel(false) && !opened.isCompletedExceptionally()) {
                opened.join().ifPresent(OpenTurn::close);
            }
            throw stopping;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw (Error) e.getCause();
        }
    }
}
