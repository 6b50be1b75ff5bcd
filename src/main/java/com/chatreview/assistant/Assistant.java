package com.chatreview.assistant;

import com.chatreview.grading.ReviewRequest;
import java.util.function.Consumer;

/**
 * Generates the assistant's next message of a conversation, streaming it.
 *
 * <p>The call blocks (callers run it on a virtual thread) and hands each piece of the reply to {@code tokens}
 * as it is generated, on the calling thread or, for a sink that {@linkplain TokenSink#acceptsWithoutWaiting()
 * accepts without waiting}, on the provider's I/O thread; concatenating the pieces gives
 * {@link AssistantReply#content()}. Interrupting the
 * calling thread cancels the generation: the call then throws {@link AssistantFailure}.
 */
public interface Assistant {

    /**
     * @throws AssistantFailure when the provider fails, before or during the stream; no partial reply is a
     *     success
     */
    AssistantReply reply(Conversation conversation, TokenSink tokens);

    /**
     * Reviews a homework submission: grades it by its rubric and streams the analysis to {@code tokens} (a
     * provider whose answer must be checked first streams the analysis once it is). The same rules of blocking,
     * streaming and cancelling hold as for {@link #reply}.
     *
     * @throws AssistantFailure when the provider fails, or its answer is not a complete, well-formed review
     */
    Review review(ReviewRequest request, Consumer<String> tokens);
}
