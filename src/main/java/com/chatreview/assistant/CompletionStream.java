package com.chatreview.assistant;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A reply of the openai provider: one chat completion request with {@code "stream": true}, its server-sent events
 * read line by line as they arrive.
 *
 * <p>This class retries exactly once, and only while nothing of the reply has reached the caller, so no token is
 * ever delivered twice. The first-token and idle timeouts are measured here on the stream of chunks. A stream is a
 * success only when the provider said why it finished; an error object in the stream, a chunk that cannot be read,
 * or a stream that just stops is a failure. There is no limit on the length of a reply that keeps coming. Ending an
 * attempt (cancelled, timed out, failed) cancels its HTTP exchange.
 */
final class CompletionStream {

    private static final Logger log = LoggerFactory.getLogger(CompletionStream.class);

    private static final JsonMapper JSON = JsonMapper.shared();

    /** How much of an error answer is read: the provider's message is at its start. */
    private static final int ERROR_BODY_CHARS = 4_000;

    private final OpenAiConnection connection;
    private final Duration firstTokenTimeout;
    private final Duration idleTimeout;

    CompletionStream(OpenAiConnection connection, Duration firstTokenTimeout, Duration idleTimeout) {
        this.connection = connection;
        this.firstTokenTimeout = firstTokenTimeout;
        this.idleTimeout = idleTimeout;
    }

    /**
     * The answer's format a review asks for: its JSON schema (strict), or JSON mode when {@code jsonSchema} is null.
     */
    record AnswerFormat(@Nullable String jsonSchema) {}

    /** One attempt, and a second one if the first failed before anything reached {@code tokens}. */
    AssistantReply stream(List<PromptMessage> prompt, @Nullable AnswerFormat format, Consumer<String> tokens) {
        String body = requestBody(prompt, format);
        long promptChars =
                prompt.stream().mapToLong(message -> message.text().length()).sum();
        Attempt first = new Attempt(tokens, promptChars);
        try {
            return first.run(body);
        } catch (Retryable failure) {
            if (first.delivered) {
                throw failure.asFailure();
            }
            log.warn("The AI provider failed before the first token ({}); retrying once", failure.getMessage());
            try {
                return new Attempt(tokens, promptChars).run(body);
            } catch (Retryable again) {
                throw again.asFailure();
            }
        }
    }

    private String requestBody(List<PromptMessage> prompt, @Nullable AnswerFormat format) {
        ObjectNode request = JSON.createObjectNode();
        request.put("model", connection.model());
        ArrayNode messages = request.putArray("messages");
        for (PromptMessage message : prompt) {
            messages.addObject().put("role", message.role().wire()).put("content", message.text());
        }
        request.put("stream", true);
        request.putObject("stream_options").put("include_usage", true);
        if (format != null) {
            ObjectNode responseFormat = request.putObject("response_format");
            if (format.jsonSchema() == null) {
                responseFormat.put("type", "json_object");
            } else {
                responseFormat.put("type", "json_schema");
                responseFormat
                        .putObject("json_schema")
                        .put("name", "review")
                        .put("strict", true)
                        .set("schema", JSON.readTree(format.jsonSchema()));
            }
        }
        return JSON.writeValueAsString(request);
    }

    /** What the HTTP exchange hands the reading thread: lines of the stream, its end, a refusal, or a failure. */
    private sealed interface Signal {}

    private record Line(String text) implements Signal {}

    private record End() implements Signal {}

    private record Refused(int status, String body) implements Signal {}

    private record Failed(Throwable error) implements Signal {}

    /** One request and its stream, read on the calling thread so that the tokens reach the caller there. */
    private final class Attempt {

        private final Consumer<String> tokens;
        private final long promptChars;
        private final StringBuilder content = new StringBuilder();
        private final BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
        private volatile Flow.@Nullable Subscription subscription;
        private boolean delivered;
        private boolean chunkSeen;
        private @Nullable String finishReason;
        private @Nullable String respondingModel;
        /** What the provider reported; {@code null} until it does (some endpoints never do). */
        private AssistantReply.@Nullable Usage usage;

        Attempt(Consumer<String> tokens, long promptChars) {
            this.tokens = tokens;
            this.promptChars = promptChars;
        }

        AssistantReply run(String body) {
            CompletableFuture<HttpResponse<Void>> exchange =
                    connection.http().sendAsync(connection.request(body), this::subscriber);
            exchange.whenComplete((response, error) -> {
                if (error != null) {
                    signals.add(new Failed(error));
                }
            });
            try {
                long deadline = System.nanoTime() + firstTokenTimeout.toNanos();
                while (true) {
                    Signal signal = signals.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                    switch (signal) {
                        case null -> throw timedOut();
                        case Line line -> {
                            if (accept(line.text())) {
                                deadline = System.nanoTime() + idleTimeout.toNanos();
                            }
                        }
                        case End end -> {
                            return complete();
                        }
                        case Refused refused -> throw refusal(refused.status(), refused.body());
                        case Failed failed -> throw failure(failed.error());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssistantFailure(AssistantFailure.Kind.CANCELLED, "The reply was cancelled", e);
            } finally {
                Flow.Subscription reading = subscription;
                if (reading != null) {
                    reading.cancel();
                }
                exchange.cancel(true);
            }
        }

        /** The stream's lines to this attempt's queue; an error answer's start, as one refusal. */
        private BodySubscriber<Void> subscriber(HttpResponse.ResponseInfo response) {
            if (response.statusCode() != 200) {
                return BodySubscribers.mapping(BodySubscribers.ofString(StandardCharsets.UTF_8), answer -> {
                    signals.add(new Refused(
                            response.statusCode(),
                            answer.length() > ERROR_BODY_CHARS ? answer.substring(0, ERROR_BODY_CHARS) : answer));
                    return null;
                });
            }
            return BodySubscribers.fromLineSubscriber(new Flow.Subscriber<String>() {
                @Override
                public void onSubscribe(Flow.Subscription lines) {
                    subscription = lines;
                    lines.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(String line) {
                    signals.add(new Line(line));
                }

                @Override
                public void onError(Throwable error) {
                    signals.add(new Failed(error));
                }

                @Override
                public void onComplete() {
                    signals.add(new End());
                }
            });
        }

        /** One line of the event stream; whether it was a chunk of the reply (which restarts the idle timeout). */
        private boolean accept(String line) {
            if (!line.startsWith("data:")) {
                // blank lines end events, ':' lines are comments (keep-alives), 'event:' names what follows
                return false;
            }
            String data = line.substring(5).strip();
            if (data.equals("[DONE]")) {
                return false;
            }
            JsonNode chunk;
            try {
                chunk = JSON.readTree(data);
            } catch (JacksonException unreadable) {
                throw new AssistantFailure(
                        "The AI provider's reply could not be read: a chunk is not JSON (" + describe(unreadable) + ")",
                        unreadable);
            }
            JsonNode error = chunk.get("error");
            if (error != null && !error.isNull()) {
                throw new AssistantFailure(
                        AssistantFailure.Kind.PROVIDER_ERROR,
                        connection.redact("The AI provider reported an error in the stream: " + message(error)),
                        null);
            }
            chunkSeen = true;
            String model = text(chunk.get("model"));
            if (model != null && !model.isBlank()) {
                respondingModel = model;
            }
            JsonNode reported = chunk.get("usage");
            // a real count always counts the prompt
            if (reported != null
                    && reported.isObject()
                    && reported.path("prompt_tokens").asInt(0) > 0) {
                int prompt = reported.path("prompt_tokens").asInt();
                int completion = reported.path("completion_tokens").asInt(0);
                usage = AssistantReply.Usage.reported(
                        prompt, completion, reported.path("total_tokens").asInt(prompt + completion));
            }
            JsonNode choices = chunk.get("choices");
            if (choices != null && choices.isArray()) {
                for (JsonNode choice : choices) {
                    String text = text(choice.path("delta").get("content"));
                    if (text != null && !text.isEmpty()) {
                        content.append(text);
                        delivered = true;
                        tokens.accept(text);
                    }
                    String reason = text(choice.get("finish_reason"));
                    if (reason != null && !reason.isBlank()) {
                        finishReason = reason.toLowerCase(Locale.ROOT);
                    }
                }
            }
            return true;
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

        private RuntimeException timedOut() {
            return chunkSeen
                    ? new AssistantFailure(
                            AssistantFailure.Kind.TIMEOUT,
                            "The AI provider sent nothing for " + idleTimeout + " in the middle of the reply (idle"
                                    + " timeout)",
                            null)
                    : new Retryable(
                            AssistantFailure.Kind.TIMEOUT,
                            "The AI provider sent nothing within " + firstTokenTimeout + " (first-token timeout)",
                            null);
        }

        private RuntimeException refusal(int status, String body) {
            String detail = connection.redact(detail(body));
            String message = "The AI provider answered HTTP " + status + ": " + detail;
            if (status == 400 && namesResponseFormat(detail)) {
                return new FormatRefused(message);
            }
            AssistantFailure.Kind kind = kindOf(status);
            return retryable(status) ? new Retryable(kind, message, null) : new AssistantFailure(kind, message, null);
        }

        private RuntimeException failure(Throwable error) {
            Throwable cause = unwrap(error);
            if (cause instanceof IOException) {
                return new Retryable(
                        AssistantFailure.Kind.UNREACHABLE,
                        "The AI provider could not be reached: " + describe(cause),
                        cause);
            }
            return new AssistantFailure("The AI provider's reply could not be read: " + describe(cause), cause);
        }
    }

    /** The provider's own words: {@code error.message} of its answer, or the answer itself. */
    private static String detail(String body) {
        try {
            JsonNode error = JSON.readTree(body).get("error");
            if (error != null && !error.isNull()) {
                return message(error);
            }
        } catch (JacksonException notJson) {
            // an answer from a proxy in front of the provider, say: its text is the detail
        }
        return body.strip();
    }

    private static String message(JsonNode error) {
        String message = error.isObject() ? text(error.get("message")) : text(error);
        return message == null || message.isBlank() ? error.toString() : message;
    }

    private static @Nullable String text(@Nullable JsonNode node) {
        return node == null || !node.isString() ? null : node.stringValue();
    }

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

    private String describe(Throwable cause) {
        String message = cause.getMessage();
        Throwable inner = cause.getCause();
        if ((message == null || message.isBlank()) && inner != null) {
            message = inner.getMessage();
        }
        return connection.redact(cause.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")"));
    }
}
