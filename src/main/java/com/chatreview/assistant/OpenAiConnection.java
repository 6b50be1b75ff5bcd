package com.chatreview.assistant;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;

/**
 * The openai provider's client of its endpoint: the settings it needs, checked at start-up, and the JDK's HTTP client
 * that {@link CompletionStream} posts each request with. There is no SDK between them (docs/decisions.md, "The
 * {@code openai} AI provider": the OpenAI SDK with Spring AI over it was 58 % of a node's CPU per streamed token); the
 * HTTP client has no overall time limit and no retries, since {@link CompletionStream} times out and retries itself.
 */
final class OpenAiConnection implements AutoCloseable {

    private final HttpClient http;
    private final URI completions;
    private final String model;
    private final String apiKey;
    /** The HTTP client's own work (a node streams hundreds of replies at once) runs on virtual threads. */
    private final ExecutorService executor = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("ai-http-", 0).factory());

    OpenAiConnection(AssistantSettings settings) {
        this.model = required(settings.model(), "AI_MODEL", "the model to ask for, for instance gpt-4o-mini");
        this.completions = URI.create(baseUrl(settings.baseUrl()) + "/chat/completions");
        this.apiKey = settings.apiKey() == null ? "" : settings.apiKey().strip();
        this.http = HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .executor(executor)
                .followRedirects(HttpClient.Redirect.NEVER)
                // HTTP/2 where TLS offers it; over plain http no h2c upgrade, which local servers may not take
                .version(
                        "https".equals(completions.getScheme())
                                ? HttpClient.Version.HTTP_2
                                : HttpClient.Version.HTTP_1_1)
                .build();
    }

    HttpClient http() {
        return http;
    }

    /** The model asked for; a reply names the one that answered when the provider says. */
    String model() {
        return model;
    }

    /**
     * A streamed chat completion request with this body. Local servers (Ollama, llama.cpp, vLLM) need no key: without
     * one, no Authorization header is sent at all.
     */
    HttpRequest request(String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(completions)
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .header("User-Agent", "chat-review-service")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!apiKey.isEmpty()) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        return request.build();
    }

    /** A message that may quote the provider, without the API key in it. */
    String redact(String message) {
        return apiKey.isEmpty() || message == null ? message : message.replace(apiKey, "[AI_API_KEY]");
    }

    @Override
    public void close() {
        http.close();
        executor.close();
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
}
