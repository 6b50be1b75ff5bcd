package com.chatreview.assistant;

import com.openai.client.OpenAIClientAsyncImpl;
import com.openai.client.OpenAIClientImpl;
import com.openai.core.ClientOptions;
import com.openai.core.Timeout;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.Request;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatModel.ResponseFormat;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.http.okhttp.SpringAiOpenAiHttpClient;

/**
 * The openai provider's client of its endpoint: the settings it needs, checked at start-up; Spring AI's
 * {@link OpenAiChatModel} over the OpenAI SDK's client; the options of each request. Spring AI's and the SDK's own
 * retries and overall time limit are off, since {@link CompletionStream} retries and times out itself; the HTTP
 * client's read timeout is only a backstop behind the stream's.
 *
 * <p>The {@link #ATTEMPT_HEADER} tags each request so that the client's interceptor can hand its HTTP call to the
 * attempt that made it, which cancels the call when it ends; the interceptor removes the header, so it never
 * leaves the process.
 */
final class OpenAiConnection implements AutoCloseable {

    private static final String ATTEMPT_HEADER = "X-Chat-Review-Attempt";

    private static final String UNUSED_KEY = "unused";
    /** How much longer than our own timeouts the HTTP client waits for a byte, so that ours fire first. */
    private static final Duration READ_TIMEOUT_MARGIN = Duration.ofSeconds(5);

    private final OpenAiChatModel chat;
    private final ClientOptions client;
    private final String model;
    private final String apiKey;
    private final Map<String, CallHandle> calls = new ConcurrentHashMap<>();
    /**
     * Reads each streamed reply on a virtual thread: the SDK's default is a platform thread per open stream, and a
     * node streams hundreds at once (docs/benchmarks.md, streaming capacity).
     */
    private final ExecutorService streamReaders = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("ai-stream-", 0).factory());

    OpenAiConnection(AssistantSettings settings) {
        this.model = required(settings.model(), "AI_MODEL", "the model to ask for, for instance gpt-4o-mini");
        String baseUrl = baseUrl(settings.baseUrl());
        this.apiKey = settings.apiKey() == null ? "" : settings.apiKey().strip();
        this.client = clientOptions(baseUrl, settings);
        this.chat = OpenAiChatModel.builder()
                .openAiClient(new OpenAIClientImpl(client))
                .openAiClientAsync(new OpenAIClientAsyncImpl(client))
                .options(options(null, null))
                .build();
    }

    OpenAiChatModel chat() {
        return chat;
    }

    /** The model asked for; a reply names the one that answered when the provider says. */
    String model() {
        return model;
    }

    /** The handle the interceptor gives the HTTP call of the request tagged {@code attempt}, until it is untracked. */
    CallHandle track(String attempt) {
        CallHandle call = new CallHandle();
        calls.put(attempt, call);
        return call;
    }

    void untrack(String attempt) {
        calls.remove(attempt);
    }

    /** A message that may quote the provider, without the API key in it. */
    String redact(String message) {
        return apiKey.isEmpty() || message == null ? message : message.replace(apiKey, "[AI_API_KEY]");
    }

    @Override
    public void close() {
        client.httpClient().close();
        streamReaders.close();
    }

    /**
     * The request options: the model, usage in the stream, no overall time limit (Spring AI's default would end
     * every reply after 60 s) and, for a request, the tag of its attempt and the answer's format (a review's).
     */
    OpenAiChatOptions options(@Nullable String attempt, @Nullable ResponseFormat format) {
        return OpenAiChatOptions.builder()
                .model(model)
                .streamUsage(true)
                .timeout(Duration.ZERO)
                .maxRetries(0)
                .responseFormat(format)
                .customHeaders(attempt == null ? null : Map.of(ATTEMPT_HEADER, attempt))
                .build();
    }

    private ClientOptions clientOptions(String baseUrl, AssistantSettings settings) {
        Duration read = (settings.firstTokenTimeout().compareTo(settings.idleTimeout()) > 0
                        ? settings.firstTokenTimeout()
                        : settings.idleTimeout())
                .plus(READ_TIMEOUT_MARGIN);
        Timeout timeout = Timeout.builder()
                .connect(settings.connectTimeout())
                .read(read)
                .write(read)
                .request(Duration.ZERO)
                .build();
        Interceptor interceptor = chain -> {
            Request.Builder request = chain.request().newBuilder().removeHeader(ATTEMPT_HEADER);
            String attempt = chain.request().header(ATTEMPT_HEADER);
            CallHandle handle = attempt == null ? null : calls.get(attempt);
            if (handle != null) {
                handle.started(chain.call());
            }
            if (apiKey.isEmpty()) {
                // local servers (Ollama, llama.cpp, vLLM) need no key: send no Authorization header at all
                request.removeHeader("Authorization");
            }
            // the SDK's per-request timeouts have no connect timeout of ours: these are the ones that hold
            return chain.withConnectTimeout((int) settings.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                    .withReadTimeout((int) read.toMillis(), TimeUnit.MILLISECONDS)
                    .withWriteTimeout((int) read.toMillis(), TimeUnit.MILLISECONDS)
                    .proceed(request.build());
        };
        return ClientOptions.builder()
                .httpClient(SpringAiOpenAiHttpClient.builder()
                        .timeout(timeout)
                        .interceptor(interceptor)
                        .build())
                .baseUrl(baseUrl)
                .streamHandlerExecutor(streamReaders)
                .apiKey(apiKey.isEmpty() ? UNUSED_KEY : apiKey)
                .timeout(timeout)
                .maxRetries(0)
                .putHeader("User-Agent", "chat-review-service")
                .build();
    }

    private static String baseUrl(@Nullable String configured) {
        String url = required(
                configured,
                "AI_BASE_URL",
                "the OpenAI-compatible endpoint ending in /v1, for instance"
                        + " https://api.openai.com/v1 or http://localhost:11434/v1");
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("AI_BASE_URL is not a URL: '" + url + "'", e);
        }
        if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                || uri.getHost() == null) {
            throw new IllegalStateException("AI_BASE_URL must be an http(s) URL ending in /v1, not '" + url + "'");
        }
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static String required(@Nullable String value, String variable, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("AI_PROVIDER=openai needs " + variable + ": " + what);
        }
        return value.strip();
    }

    /** The HTTP call of an attempt, cancelled when the attempt ends, even if it starts after that. */
    static final class CallHandle {

        private @Nullable Call call;
        private boolean ended;

        synchronized void started(Call call) {
            this.call = call;
            if (ended) {
                call.cancel();
            }
        }

        synchronized void end() {
            ended = true;
            if (call != null) {
                call.cancel();
            }
        }
    }
}
