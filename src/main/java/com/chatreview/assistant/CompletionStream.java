package com.chatreview.assistant;

import com.chatreview.assistant.OpenAiConnection.CallHandle;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.SseException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.metadata.EmptyUsage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatModel.ResponseFormat;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A reply of the openai provider, streamed through Spring AI's {@link OpenAiChatModel}.
 *
 * <p>This class retries exactly once, and only while nothing of the reply has reached the caller, so no token is
 * ever delivered twice. The first-token and idle timeouts are measured here on the stream of chunks. A stream is a
 * success only when the provider said why it finished; an error object in the stream, a chunk that cannot be read,
 * or a stream that just stops is a failure. There is no limit on the length of a reply that keeps coming.
 *
 * <p>Ending an attempt (cancelled, timed out, failed) cancels its HTTP call: closing the SDK's stream alone would
 * wait for the provider's next byte, since its reader holds the stream's lock while it waits. The attempt's tag
 * lets {@link OpenAiConnection} hand it the call.
 */
final class CompletionStream {

    private static final Logger log = LoggerFactory.getLogger(CompletionStream.class);

    private final OpenAiConnection connection;
    private final Duration firstTokenTimeout;
    private final Duration idleTimeout;

    CompletionStream(OpenAiConnection connection, Duration firstTokenTimeout, Duration idleTimeout) {
        this.connection = connection;
        this.firstTokenTimeout = firstTokenTimeout;
        this.idleTimeout = idleTimeout;
    }

    /** One attempt, and a second one if the first failed before anything reached {@code tokens}. */
    AssistantReply stream(List<Message> prompt, @Nullable ResponseFormat format, Consumer<String> tokens) {
        Attempt first = new Attempt(tokens);
        try {
            return first.run(prompt, format);
        } catch (Retryable failure) {
            if (first.delivered) {
                throw failure.asFailure();
            }
            log.warn("The AI provider failed before the first token ({}); retrying once", failure.getMessage());
            try {
                return new Attempt(tokens).run(prompt, format);
            } catch (Retryable again) {
                throw again.asFailure();
            }
        }
    }

    /** One request and its stream, read on the calling thread so that the tokens reach the caller there. */
    private final class Attempt {

        private final Consumer<String> tokens;
        private final StringBuilder content = new StringBuilder();
        private boolean delivered;
        private boolean chunkSeen;
        private @Nullable String finishReason;
        private @Nullable String respondingModel;
        /** What the provider reported; {@code null} until it does (some endpoints never do). */
        private AssistantReply.@Nullable Usage usage;

        private long promptChars;

        Attempt(Consumer<String> tokens) {
            this.tokens = tokens;
        }

        AssistantReply run(List<Message> messages, @Nullable ResponseFormat format) {
            promptChars = messages.stream()
                    .mapToLong(message ->
                            message.getText() == null ? 0 : message.getText().length())
                    .sum();
            String tag = UUID.randomUUID().toString();
            CallHandle call = connection.track(tag);
            BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
            Disposable subscription = connection.chat().stream(new Prompt(messages, connection.options(tag, format)))
                    .cancelOn(Schedulers.boundedElastic())
                    .timeout(Mono.delay(firstTokenTimeout), chunk -> Mono.delay(idleTimeout))
                    .subscribe(
                            chunk -> signals.add(new Signal(chunk, null, false)),
                            error -> signals.add(new Signal(null, error, false)),
                            () -> signals.add(new Signal(null, null, true)));
            try {
                while (true) {
                    Signal signal = signals.take();
                    if (signal.error() != null) {
                        throw failure(signal.error());
                    }
                    if (signal.done()) {
                        return complete();
                    }
                    accept(Objects.requireNonNull(signal.chunk(), "a signal neither an error nor the end is a chunk"));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssistantFailure(AssistantFailure.Kind.CANCELLED, "The reply was cancelled", e);
            } finally {
                connection.untrack(tag);
                call.end();
                subscription.dispose();
            }
        }

        private void accept(ChatResponse chunk) {
            chunkSeen = true;
            if (chunk.getMetadata().getModel() != null
                    && !chunk.getMetadata().getModel().isBlank()) {
                respondingModel = chunk.getMetadata().getModel();
            }
            Usage reported = chunk.getMetadata().getUsage();
            // a chunk without a usage object still carries one, of zeros: a real count always counts the prompt
            if (reported != null
                    && !(reported instanceof EmptyUsage)
                    && reported.getNativeUsage() != null
                    && reported.getPromptTokens() != null
                    && reported.getPromptTokens() > 0
                    && reported.getCompletionTokens() != null) {
                int prompt = reported.getPromptTokens();
                int completion = reported.getCompletionTokens();
                usage = AssistantReply.Usage.reported(
                        prompt,
                        completion,
                        reported.getTotalTokens() == null ? prompt + completion : reported.getTotalTokens());
            }
            for (Generation generation : chunk.getResults()) {
                String text = generation.getOutput().getText();
                if (text != null && !text.isEmpty()) {
                    content.append(text);
                    delivered = true;
                    tokens.accept(text);
                }
                String reason = generation.getMetadata().getFinishReason();
                if (reason != null && !reason.isBlank()) {
                    finishReason = reason.toLowerCase(Locale.ROOT);
                }
            }
        }

        private AssistantReply complete() {
            if (finishReason == null) {
                throw new AssistantFailure(
                        AssistantFailure.Kind.INCOMPLETE,
                        "The AI provider's stream ended without saying why it finished"
                                + " (no finish_reason): the reply is incomplete",
                        null);
            }
            return new AssistantReply(
                    content.toString(),
                    OpenAiAssistant.PROVIDER,
                    respondingModel == null ? connection.model() : respondingModel,
                    finishReason,
                    usage != null ? usage : AssistantReply.Usage.estimated(promptChars, content.length()));
        }

        private RuntimeException failure(Throwable error) {
            Throwable cause = unwrap(error);
            if (cause instanceof TimeoutException) {
                return chunkSeen
                        ? new AssistantFailure(
                                AssistantFailure.Kind.TIMEOUT,
                                "The AI provider sent nothing for " + idleTimeout
                                        + " in the middle of the reply (idle timeout)",
                                null)
                        : new Retryable(
                                AssistantFailure.Kind.TIMEOUT,
                                "The AI provider sent nothing within " + firstTokenTimeout + " (first-token timeout)",
                                null);
            }
            if (cause instanceof SseException sse) {
                return new AssistantFailure(
                        AssistantFailure.Kind.PROVIDER_ERROR,
                        "The AI provider reported an error in the stream: " + detail(sse),
                        null);
            }
            if (cause instanceof OpenAIServiceException service) {
                String message = "The AI provider answered HTTP " + service.statusCode() + ": " + detail(service);
                if (service.statusCode() == 400 && namesResponseFormat(detail(service))) {
                    return new FormatRefused(message);
                }
                AssistantFailure.Kind kind = kindOf(service.statusCode());
                return retryable(service.statusCode())
                        ? new Retryable(kind, message, null)
                        : new AssistantFailure(kind, message, null);
            }
            if (cause instanceof OpenAIIoException || cause instanceof IOException) {
                return new Retryable(
                        AssistantFailure.Kind.UNREACHABLE,
                        "The AI provider could not be reached: " + describe(cause),
                        cause);
            }
            return new AssistantFailure("The AI provider's reply could not be read: " + describe(cause), cause);
        }
    }

    private record Signal(
            @Nullable ChatResponse chunk, @Nullable Throwable error, boolean done) {}

    /** A failure before anything reached the caller that another attempt may not repeat. */
    private final class Retryable extends RuntimeException {

        private final AssistantFailure.Kind kind;

        Retryable(AssistantFailure.Kind kind, String message, @Nullable Throwable cause) {
            super(connection.redact(message), cause, false, false);
            this.kind = kind;
        }

        AssistantFailure asFailure() {
            return new AssistantFailure(kind, Objects.requireNonNull(getMessage(), "made with a message"), getCause());
        }
    }

    /** A request refused for its {@code response_format}: a review asks again in JSON mode. */
    static final class FormatRefused extends AssistantFailure {

        FormatRefused(String message) {
            super(AssistantFailure.Kind.REFUSED, message, null);
        }
    }

    private static boolean namesResponseFormat(String detail) {
        String lower = detail.toLowerCase(Locale.ROOT);
        return lower.contains("response_format") || lower.contains("json_schema");
    }

    private static AssistantFailure.Kind kindOf(int status) {
        if (status == 429) {
            return AssistantFailure.Kind.RATE_LIMITED;
        }
        return status >= 500 ? AssistantFailure.Kind.PROVIDER_ERROR : AssistantFailure.Kind.REFUSED;
    }

    private static boolean retryable(int status) {
        return status == 408 || status == 429 || status >= 500;
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The provider's own words: the SDK's message is "{status}: {error.message}". */
    private String detail(OpenAIServiceException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        String prefix = e.statusCode() + ": ";
        return connection.redact(message.startsWith(prefix) ? message.substring(prefix.length()) : message);
    }

    private String describe(Throwable cause) {
        String message = cause.getMessage();
        Throwable inner = cause.getCause();
        if ((message == null || message.isBlank()) && inner != null) {
            message = inner.getMessage();
        }
        return connection.redact(cause.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")"));
    }
}
