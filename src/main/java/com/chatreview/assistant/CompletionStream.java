package com.chatreview.assistant;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.jetty.client.HttpResponseException;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.thread.Invocable;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A reply of the openai provider: one chat completion request with {@code "stream": true}, its server-sent events
 * read line by line as they arrive, on the caller's thread.
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
    private static final JsonFactory JSON_FACTORY = new JsonFactory();

    /**
     * When text that arrived together is handed on without waiting for the read to find nothing more: past this many
     * characters (checked after each read, so a piece is at most one read longer), or this long after its first.
     */
    private static final int MAX_PIECE_CHARS = 512;

    private static final long MAX_PIECE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** How much of an error answer is read: the provider's message is at its start. */
    private static final int ERROR_BODY_CHARS = 4_000;

    /**
     * How long the caller waits for its turn before it looks again whether it timed out, or the exchange ended while
     * the I/O thread read: at most a quarter of a second, at least a tenth of a millisecond (the I/O thread's turn is
     * about to end then).
     */
    private static final long WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private static final long MIN_WAIT_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

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
    AssistantReply stream(List<PromptMessage> prompt, @Nullable AnswerFormat format, TokenSink tokens) {
        byte[] body = requestBody(prompt, format);
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

    /**
     * The request, written straight into its bytes: a reply's prompt holds the chat's history, and a tree of it, then
     * a string, then bytes were three copies of the longest thing a reply sends.
     */
    private byte[] requestBody(List<PromptMessage> prompt, @Nullable AnswerFormat format) {
        int sizeHint = 256;
        for (PromptMessage message : prompt) {
            sizeHint += message.text().length() + 32;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(sizeHint);
        try (JsonGenerator request = JSON.createGenerator(bytes)) {
            request.writeStartObject();
            request.writeStringProperty("model", connection.model());
            request.writeArrayPropertyStart("messages");
            for (PromptMessage message : prompt) {
                request.writeStartObject();
                request.writeStringProperty("role", message.role().wire());
                request.writeStringProperty("content", message.text());
                request.writeEndObject();
            }
            request.writeEndArray();
            request.writeBooleanProperty("stream", true);
            request.writeObjectPropertyStart("stream_options");
            request.writeBooleanProperty("include_usage", true);
            request.writeEndObject();
            if (format != null) {
                request.writeObjectPropertyStart("response_format");
                if (format.jsonSchema() == null) {
                    request.writeStringProperty("type", "json_object");
                } else {
                    request.writeStringProperty("type", "json_schema");
                    request.writeObjectPropertyStart("json_schema");
                    request.writeStringProperty("name", "review");
                    request.writeBooleanProperty("strict", true);
                    request.writeName("schema");
                    request.writeTree(JSON.readTree(format.jsonSchema()));
                    request.writeEndObject();
                }
                request.writeEndObject();
            }
            request.writeEndObject();
        }
        return bytes.toByteArray();
    }

    /**
     * One request and its stream, read by one thread at a time. The calling thread (a virtual one) takes each piece
     * of the body from the HTTP client itself and parks until the next one arrives. While it waits, the client's I/O
     * thread reads what arrived itself and hands the text on, as long as the sink {@linkplain
     * TokenSink#acceptsWithoutWaiting() accepts it without waiting}: then a token costs no wake-up of the caller
     * at all. Anything else (the stream's end, a failure, a sink that would wait) goes back to the caller.
     */
    private final class Attempt implements Response.Listener {

        /** Whose turn it is to read the body: the caller's. */
        private static final int CALLER = 0;
        /** A demand is pending: whoever it wakes reads. */
        private static final int WAITING = 1;
        /** The client's I/O thread reads; the caller waits for its turn back. */
        private static final int IO_THREAD = 2;
        /** The caller stopped waiting (timed out, cancelled, the exchange ended): a late demand reads nothing. */
        private static final int GIVEN_UP = 3;

        private final TokenSink tokens;
        private final long promptChars;
        private final StringBuilder content = new StringBuilder();
        private final SseLines lines = new SseLines();
        /** The HTTP client's signals to the caller: the body is there, its turn is back, or the exchange ended. */
        private final Semaphore signals = new Semaphore(0);

        private final AtomicInteger turn = new AtomicInteger(CALLER);
        /** Run by the client's I/O thread as it is: nothing in it waits. */
        private final Runnable moreToRead = Invocable.from(Invocable.InvocationType.NON_BLOCKING, this::moreArrived);
        /** Set once the answer is a stream of the reply (HTTP 200): only then does the I/O thread read it. */
        private volatile boolean streaming;
        /** When the caller gives up waiting: the first token's timeout, then the idle one from each chunk. */
        private volatile long deadline;
        /** The last or a failed chunk the I/O thread read: the caller takes it from there. */
        private Content.@Nullable Chunk handedBack;
        /** What failed while the I/O thread read: thrown by the caller. */
        private @Nullable RuntimeException failedOnIoThread;

        private volatile Content.@Nullable Source body;
        private volatile @Nullable Response response;
        private volatile @Nullable Throwable exchangeFailure;
        private volatile boolean exchangeComplete;

        private final List<String> chunkTexts = new ArrayList<>(2);
        /**
         * The text of the chunks that arrived together, not yet handed on: what the client had ready when this thread
         * came to read goes on as one piece (a busy node reads late, and then finds several), so that one event, one
         * frame and one relay carry them all. Nothing waits for more to arrive.
         */
        private final StringBuilder arrived = new StringBuilder();
        /** When the first of {@link #arrived} came: a provider faster than this thread still gets its text on. */
        private long arrivedSince;

        private boolean delivered;
        private volatile boolean chunkSeen;
        private @Nullable String finishReason;
        private @Nullable String respondingModel;
        /** What the provider reported; {@code null} until it does (some endpoints never do). */
        private AssistantReply.@Nullable Usage usage;

        Attempt(TokenSink tokens, long promptChars) {
            this.tokens = tokens;
            this.promptChars = promptChars;
        }

        @Override
        public void onHeaders(Response response) {
            this.response = response;
        }

        @Override
        public void onContentSource(Response response, Content.Source source) {
            this.response = response;
            this.body = source;
            signals.release();
        }

        @Override
        public void onComplete(Result result) {
            if (result.isFailed()) {
                exchangeFailure = result.getFailure();
            }
            exchangeComplete = true;
            signals.release();
        }

        AssistantReply run(byte[] requestBody) {
            Request request = connection.request(requestBody);
            deadline = System.nanoTime() + firstTokenTimeout.toNanos();
            request.send(this);
            try {
                Content.Source source = awaitBody();
                Response answered = response;
                int status = answered == null ? 200 : answered.getStatus();
                if (status != 200) {
                    throw refusal(status, source == null ? "" : errorAnswer(source));
                }
                if (source == null) {
                    return complete(); // an answer without a body: no finish reason, so a failure
                }
                streaming = true;
                while (true) {
                    Content.Chunk chunk = takeHandedBack();
                    if (chunk == null) {
                        chunk = source.read();
                    }
                    if (chunk == null) {
                        handOnArrived();
                        awaitMore(source);
                        continue;
                    }
                    try {
                        if (Content.Chunk.isFailure(chunk)) {
                            throw failure(chunk.getFailure());
                        }
                        if (lines.feed(chunk.getByteBuffer(), this::accept)) {
                            deadline = System.nanoTime() + idleTimeout.toNanos();
                        }
                        if (chunk.isLast()) {
                            lines.end(this::accept);
                            handOnArrived();
                            return complete();
                        }
                        if (arrived.length() >= MAX_PIECE_CHARS
                                || System.nanoTime() - arrivedSince > MAX_PIECE_WAIT_NANOS) {
                            handOnArrived();
                        }
                    } finally {
                        chunk.release();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssistantFailure(AssistantFailure.Kind.CANCELLED, "The reply was cancelled", e);
            } finally {
                takeTurnForGood();
                // a no-op once the exchange is complete; otherwise it ends the exchange and its connection
                request.abort(new CancellationException("The attempt ended"));
                Content.Chunk unread = takeHandedBack();
                if (unread != null) {
                    unread.release();
                }
            }
        }

        /** The response's body once its headers are in; null when the exchange completed without one. */
        private Content.@Nullable Source awaitBody() throws InterruptedException {
            while (true) {
                Content.Source source = body;
                if (source != null) {
                    return source;
                }
                Throwable failed = exchangeFailure;
                if (failed != null) {
                    throw failure(failed);
                }
                if (exchangeComplete) {
                    return null;
                }
                if (!signals.tryAcquire(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                    throw timedOut();
                }
            }
        }

        /**
         * Waits until it is the caller's turn to read again: more of the body arrived (and the I/O thread did not take
         * it), the I/O thread handed the stream back, or the exchange ended. A wake-up left by another signal does not
         * count: reading while a demand is pending fails the exchange.
         */
        private void awaitMore(Content.Source source) throws InterruptedException {
            turn.set(WAITING);
            source.demand(moreToRead);
            while (true) {
                boolean signalled = signals.tryAcquire(
                        Math.clamp(deadline - System.nanoTime(), MIN_WAIT_NANOS, WAIT_SLICE_NANOS),
                        TimeUnit.NANOSECONDS);
                int now = turn.get();
                if (now == CALLER) {
                    RuntimeException failed = failedOnIoThread;
                    if (failed != null) {
                        failedOnIoThread = null;
                        throw failed;
                    }
                    return;
                }
                if (now == IO_THREAD) {
                    continue; // it hands the stream back, or waits for more, soon
                }
                if (exchangeComplete && turn.compareAndSet(WAITING, GIVEN_UP)) {
                    Throwable failed = exchangeFailure;
                    throw failed != null
                            ? failure(failed)
                            : new AssistantFailure(
                                    AssistantFailure.Kind.INCOMPLETE,
                                    "The AI provider's stream ended before its last piece was read",
                                    null);
                }
                if (!signalled && System.nanoTime() - deadline >= 0 && turn.compareAndSet(WAITING, GIVEN_UP)) {
                    throw timedOut();
                }
            }
        }

        /**
         * The demand's wake-up, on the client's I/O thread: it reads what arrived and hands the text on itself while the
         * sink takes it without waiting; otherwise, or at the stream's end, the caller gets its turn back.
         */
        private void moreArrived() {
            if (!turn.compareAndSet(WAITING, IO_THREAD)) {
                return; // the caller gave up
            }
            boolean demandedAgain = false;
            try {
                demandedAgain = streaming && tokens.acceptsWithoutWaiting() && readOnIoThread();
            } finally {
                if (!demandedAgain) {
                    turn.set(CALLER);
                    signals.release();
                }
            }
        }

        /** Reads on the I/O thread until nothing more is there; false when the caller is to go on instead. */
        private boolean readOnIoThread() {
            Content.Source source = Objects.requireNonNull(body, "a stream has a body");
            try {
                while (true) {
                    Content.Chunk chunk = source.read();
                    if (chunk == null) {
                        if (!arrived.isEmpty()) {
                            if (!tokens.acceptsWithoutWaiting()) {
                                return false;
                            }
                            handOnArrived();
                        }
                        turn.set(WAITING);
                        source.demand(moreToRead);
                        return true;
                    }
                    if (chunk.isLast() || Content.Chunk.isFailure(chunk)) {
                        handedBack = chunk;
                        return false;
                    }
                    try {
                        if (lines.feed(chunk.getByteBuffer(), this::accept)) {
                            deadline = System.nanoTime() + idleTimeout.toNanos();
                        }
                    } finally {
                        chunk.release();
                    }
                    if (arrived.length() >= MAX_PIECE_CHARS
                            || System.nanoTime() - arrivedSince > MAX_PIECE_WAIT_NANOS) {
                        if (!arrived.isEmpty() && !tokens.acceptsWithoutWaiting()) {
                            return false;
                        }
                        handOnArrived();
                    }
                }
            } catch (RuntimeException failed) {
                failedOnIoThread = failed;
                return false;
            }
        }

        private Content.@Nullable Chunk takeHandedBack() {
            Content.Chunk chunk = handedBack;
            handedBack = null;
            return chunk;
        }

        /**
         * The attempt is over: no demand reads on, and the I/O thread is done with what it was handing on, so that
         * nothing of this reply reaches the sink after the caller returned or threw.
         */
        private void takeTurnForGood() {
            while (true) {
                int now = turn.get();
                if (now == CALLER || now == GIVEN_UP || (now == WAITING && turn.compareAndSet(WAITING, GIVEN_UP))) {
                    return;
                }
                if (now == IO_THREAD) {
                    LockSupport.parkNanos(50_000);
                }
            }
        }

        /** The start of an error answer: the provider's message is there. */
        private String errorAnswer(Content.Source source) throws InterruptedException {
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            while (answer.size() < ERROR_BODY_CHARS * 4) {
                Content.Chunk chunk = source.read();
                if (chunk == null) {
                    awaitMore(source);
                    continue;
                }
                try {
                    if (Content.Chunk.isFailure(chunk)) {
                        break; // what was read is the detail
                    }
                    ByteBuffer bytes = chunk.getByteBuffer();
                    byte[] piece = new byte[bytes.remaining()];
                    bytes.get(piece);
                    answer.writeBytes(piece);
                    if (chunk.isLast()) {
                        break;
                    }
                } finally {
                    chunk.release();
                }
            }
            String text = answer.toString(StandardCharsets.UTF_8);
            return text.length() > ERROR_BODY_CHARS ? text.substring(0, ERROR_BODY_CHARS) : text;
        }

        /**
         * One line of the event stream; whether it was a chunk of the reply (which restarts the idle timeout). A
         * chunk's fields are read as they come, without a tree of it; its pieces of text reach the caller once the
         * whole chunk was read and held no error.
         */
        private boolean accept(byte[] line, int length) {
            if (!SseLines.isData(line, length)) {
                // blank lines end events, ':' lines are comments (keep-alives), 'event:' names what follows
                return false;
            }
            int start = SseLines.DATA.length;
            int end = length;
            while (start < end && line[start] <= ' ') {
                start++;
            }
            while (end > start && line[end - 1] <= ' ') {
                end--;
            }
            if (SseLines.isDone(line, start, end)) {
                return false;
            }
            chunkTexts.clear();
            try (JsonParser chunk = JSON_FACTORY.createParser(ObjectReadContext.empty(), line, start, end - start)) {
                if (readChunk(chunk)) {
                    JsonNode error = JSON.readTree(new String(line, start, end - start, StandardCharsets.UTF_8))
                            .get("error");
                    throw new AssistantFailure(
                            AssistantFailure.Kind.PROVIDER_ERROR,
                            connection.redact("The AI provider reported an error in the stream: " + message(error)),
                            null);
                }
            } catch (JacksonException unreadable) {
                throw new AssistantFailure(
                        "The AI provider's reply could not be read: a chunk is not JSON (" + describe(unreadable) + ")",
                        unreadable);
            }
            chunkSeen = true;
            for (String text : chunkTexts) {
                if (arrived.isEmpty()) {
                    arrivedSince = System.nanoTime();
                }
                arrived.append(text);
            }
            return true;
        }

        private void handOnArrived() {
            if (arrived.isEmpty()) {
                return;
            }
            String piece = arrived.toString();
            arrived.setLength(0);
            content.append(piece);
            delivered = true;
            tokens.accept(piece);
        }

        /**
         * Reads a chunk's {@code model}, {@code usage} and {@code choices[].delta.content} / {@code finish_reason};
         * true when it carries an {@code error} object instead (read again, whole, for its message).
         */
        private boolean readChunk(JsonParser chunk) {
            JsonToken first = chunk.nextToken();
            if (first != JsonToken.START_OBJECT) {
                chunk.skipChildren();
                requireEnd(chunk);
                return false;
            }
            boolean error = false;
            String model = null;
            AssistantReply.Usage reported = null;
            String reason = null;
            while (chunk.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = chunk.currentName();
                JsonToken value = chunk.nextToken();
                switch (name) {
                    case "error" -> {
                        error |= value != JsonToken.VALUE_NULL;
                        chunk.skipChildren();
                    }
                    case "model" -> model = value == JsonToken.VALUE_STRING ? chunk.getString() : model;
                    case "usage" -> {
                        if (value == JsonToken.START_OBJECT) {
                            reported = usage(chunk);
                        } else {
                            chunk.skipChildren();
                        }
                    }
                    case "choices" -> {
                        if (value == JsonToken.START_ARRAY) {
                            while (chunk.nextToken() != JsonToken.END_ARRAY) {
                                reason = choice(chunk, reason);
                            }
                        } else {
                            chunk.skipChildren();
                        }
                    }
                    default -> chunk.skipChildren();
                }
            }
            requireEnd(chunk);
            if (error) {
                return true;
            }
            if (model != null && !model.isBlank()) {
                respondingModel = model;
            }
            if (reported != null) {
                usage = reported;
            }
            if (reason != null && !reason.isBlank()) {
                finishReason = reason.toLowerCase(Locale.ROOT);
            }
            return false;
        }

        /** One of {@code choices}: its text to {@link #chunkTexts}; its finish reason, or {@code reason} if none. */
        private @Nullable String choice(JsonParser chunk, @Nullable String reason) {
            if (chunk.currentToken() != JsonToken.START_OBJECT) {
                chunk.skipChildren();
                return reason;
            }
            String finished = reason;
            while (chunk.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = chunk.currentName();
                JsonToken value = chunk.nextToken();
                if (name.equals("delta") && value == JsonToken.START_OBJECT) {
                    while (chunk.nextToken() == JsonToken.PROPERTY_NAME) {
                        boolean text = chunk.currentName().equals("content");
                        if (chunk.nextToken() == JsonToken.VALUE_STRING && text) {
                            String piece = chunk.getString();
                            if (!piece.isEmpty()) {
                                chunkTexts.add(piece);
                            }
                        } else {
                            chunk.skipChildren();
                        }
                    }
                } else if (name.equals("finish_reason") && value == JsonToken.VALUE_STRING) {
                    String said = chunk.getString();
                    finished = said.isBlank() ? finished : said;
                } else {
                    chunk.skipChildren();
                }
            }
            return finished;
        }

        /** A reported usage; only a real count, which always counts the prompt, replaces none. */
        private AssistantReply.@Nullable Usage usage(JsonParser chunk) {
            int prompt = 0;
            int completion = 0;
            Integer total = null;
            while (chunk.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = chunk.currentName();
                JsonToken value = chunk.nextToken();
                if (!value.isScalarValue()) {
                    chunk.skipChildren();
                    continue;
                }
                switch (name) {
                    case "prompt_tokens" -> prompt = chunk.getValueAsInt(0);
                    case "completion_tokens" -> completion = chunk.getValueAsInt(0);
                    case "total_tokens" -> {
                        int said = chunk.getValueAsInt(-1);
                        total = said < 0 ? null : said;
                    }
                    default -> {}
                }
            }
            if (prompt <= 0) {
                return null;
            }
            return AssistantReply.Usage.reported(prompt, completion, total == null ? prompt + completion : total);
        }

        private void requireEnd(JsonParser chunk) {
            if (chunk.nextToken() != null) {
                throw new AssistantFailure(
                        "The AI provider's reply could not be read: a chunk is not JSON (more after its end)");
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
            if (cause instanceof IOException
                    || cause instanceof TimeoutException
                    || cause instanceof HttpResponseException
                    || cause instanceof RejectedExecutionException) {
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
