package com.chatreview.assistant;

import com.chatreview.assistant.AssistantSettings.ReviewFormat;
import com.chatreview.assistant.ReviewAnswer.InvalidAnswer;
import com.chatreview.grading.ReviewRequest;
import com.chatreview.grading.Rubric;
import com.chatreview.grading.Verdict;
import com.chatreview.grading.Verdicts;
import com.chatreview.grading.Verdicts.Proposal;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp, LM Studio,
 * OpenRouter): {@link Prompts} writes what it is sent, {@link CompletionStream} streams each reply with its timeouts
 * and one retry, over the client {@link OpenAiConnection} sets up.
 *
 * <p>A review is the same stream with another prompt, and an answer asked for as structured output,
 * {@link ReviewAnswer}'s JSON schema (strict) or JSON mode ({@code AI_REVIEW_FORMAT}). Nothing of the answer
 * reaches the caller while it streams: once it validates, {@code Verdicts.settle} turns it into the verdict and
 * the service's analysis is streamed word by word. An answer that does not validate is asked for once more,
 * saying what was wrong; a second one is an {@link AssistantFailure}.
 */
class OpenAiAssistant implements Assistant, AutoCloseable {

    static final String PROVIDER = "openai";

    private static final Logger log = LoggerFactory.getLogger(OpenAiAssistant.class);

    private final OpenAiConnection connection;
    private final CompletionStream completions;
    private final int historyTokens;
    private final ReviewFormat reviewFormat;
    /** Set once the endpoint has refused a JSON schema: every later review asks in JSON mode. */
    private volatile boolean schemaRefused;

    private final Counter droppedFindings;

    OpenAiAssistant(AssistantSettings settings) {
        this(settings, new SimpleMeterRegistry());
    }

    OpenAiAssistant(AssistantSettings settings, MeterRegistry meters) {
        this.connection = new OpenAiConnection(settings);
        this.completions = new CompletionStream(connection, settings.firstTokenTimeout(), settings.idleTimeout());
        this.historyTokens = settings.historyTokens();
        this.reviewFormat = settings.reviewFormat();
        this.droppedFindings = Counter.builder("reviews.findings.dropped")
                .description("Findings of a provider's review left out: their criterion, file or line does not exist")
                .tag("provider", PROVIDER)
                .register(meters);
    }

    /**
     * Asks for the review as structured output and streams nothing of it: once an answer validates (the first,
     * or the one asked for again after it did not), the verdict's analysis, written by the service, is streamed
     * word by word. The reply's usage is both requests' together.
     */
    @Override
    public Review review(ReviewRequest request, Consumer<String> tokens) {
        List<PromptMessage> prompt = Prompts.reviewMessages(request);
        Answer first = answer(prompt, request.rubric());
        Answer last = first;
        if (first.proposal() == null) {
            log.warn("The AI provider's review did not validate ({}); asking once more", first.invalid());
            last = answer(
                    Prompts.againMessages(
                            prompt, Objects.requireNonNull(first.invalid(), "an answer without a proposal says why")),
                    request.rubric());
            if (last.proposal() == null) {
                throw new AssistantFailure(
                        AssistantFailure.Kind.INVALID_ANSWER,
                        "The AI provider's answer could not be read as a review, twice: " + last.invalid(),
                        null);
            }
        }
        Verdicts.Settled settled = Verdicts.settle(
                request, Objects.requireNonNull(last.proposal(), "the first answer validated, or the second did"));
        droppedFindings.increment(settled.droppedFindings());
        Verdict verdict = settled.verdict();
        WordByWord.stream(verdict.analysis(), tokens, Duration.ZERO);
        AssistantReply.Usage usage = first == last
                ? last.reply().usage()
                : first.reply().usage().plus(last.reply().usage());
        return Review.of(
                verdict,
                new AssistantReply(
                        verdict.analysis(),
                        PROVIDER,
                        last.reply().model(),
                        last.reply().finishReason(),
                        usage));
    }

    /** A review's answer: the proposal it makes, or why it is not one. */
    private record Answer(
            AssistantReply reply,
            @Nullable Proposal proposal,
            @Nullable String invalid) {}

    private Answer answer(List<PromptMessage> prompt, Rubric rubric) {
        AssistantReply reply = reviewReply(prompt, rubric);
        try {
            return new Answer(reply, ReviewAnswer.read(reply.content(), rubric), null);
        } catch (InvalidAnswer e) {
            String cutOff =
                    "length".equals(reply.finishReason()) ? " (the answer stopped at the provider's length limit)" : "";
            return new Answer(reply, null, e.getMessage() + cutOff);
        }
    }

    /**
     * The whole answer to a review request, in the configured format; an endpoint that refuses a JSON schema
     * ({@code 400} naming it) is asked in JSON mode instead, now and from then on.
     */
    private AssistantReply reviewReply(List<PromptMessage> prompt, Rubric rubric) {
        ReviewFormat format = schemaRefused ? ReviewFormat.JSON_OBJECT : reviewFormat;
        try {
            return completions.stream(prompt, responseFormat(format, rubric), piece -> {});
        } catch (CompletionStream.FormatRefused refused) {
            if (format != ReviewFormat.JSON_SCHEMA) {
                throw refused;
            }
            schemaRefused = true;
            log.warn(
                    "The AI provider refused a JSON schema as response_format ({}); reviews ask in JSON mode from"
                            + " now on (AI_REVIEW_FORMAT=json_object says so from the start)",
                    refused.getMessage());
            return completions.stream(prompt, responseFormat(ReviewFormat.JSON_OBJECT, rubric), piece -> {});
        }
    }

    static CompletionStream.AnswerFormat responseFormat(ReviewFormat format, Rubric rubric) {
        return new CompletionStream.AnswerFormat(
                format == ReviewFormat.JSON_SCHEMA ? ReviewAnswer.schema(rubric) : null);
    }

    @Override
    public AssistantReply reply(Conversation conversation, TokenSink tokens) {
        return completions.stream(Prompts.messages(conversation, historyTokens), null, tokens);
    }

    @Override
    public void close() {
        connection.close();
    }
}
