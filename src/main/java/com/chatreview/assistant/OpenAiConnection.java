package com.chatreview.assistant;

import java.net.URI;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.jspecify.annotations.Nullable;

/**
 * The openai provider's client of its endpoint: the settings it needs, checked at start-up, and the Jetty HTTP client
 * that {@link CompletionStream} posts each request with. There is no SDK between them (docs/decisions.md, "The
 * {@code openai} AI provider": the OpenAI SDK with Spring AI over it was 58 % of a node's CPU per streamed token), and
 * not the JDK's HTTP client either, whose asynchronous receive path was the largest share of what was left; the HTTP
 * client has no overall time limit and no retries, since {@link CompletionStream} times out and retries itself.
 */
final class OpenAiConnection implements AutoCloseable {

    /**
     * A node streams a reply per student at once, each on a connection of its own (HTTP/1.1): the client's default of
     * 64 connections per endpoint would queue the rest.
     */
    private static final int MAX_CONNECTIONS = 20_000;

    private final HttpClient http;
    private final URI completions;
    private final String model;
    private final String apiKey;

    OpenAiConnection(AssistantSettings settings) {
        this.model = required(settings.model(), "AI_MODEL", "the model to ask for, for instance gpt-4o-mini");
        this.completions = URI.create(baseUrl(settings.baseUrl()) + "/chat/completions");
        this.apiKey = settings.apiKey() == null ? "" : settings.apiKey().strip();
        // a selector hands a single node's tokens on itself (CompletionStream): more of them than Jetty's one, so that
        // a selector the OS holds back stalls fewer replies (docs/benchmarks.md, tokens handed on by the I/O thread)
        ClientConnector connector = new ClientConnector();
        connector.setSelectors(2 * Runtime.getRuntime().availableProcessors());
        this.http = new HttpClient(new HttpClientTransportOverHTTP(connector));
        // the client's threads only read sockets and wake the replies' threads; they never keep a JVM alive
        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("ai-http");
        threads.setDaemon(true);
        http.setExecutor(threads);
        http.setScheduler(new ScheduledExecutorScheduler("ai-http-scheduler", true));
        // nothing the client calls back blocks (CompletionStream's listeners hand on what arrived to a sink that takes
        // it without waiting, or wake the reply's thread): the selector reads and parses a response itself instead of
        // handing each read to another thread
        http.getHttpClientTransport().setInvocationType(Invocable.InvocationType.NON_BLOCKING);
        // every answer reaches CompletionStream as it is: a 401 is the provider's refusal, not a challenge to answer
        http.getProtocolHandlers().clear();
        // no Accept-Encoding: a compressing proxy would hold the stream back to fill its blocks
        http.getContentDecoderFactories().clear();
        http.setConnectTimeout(settings.connectTimeout().toMillis());
        http.setFollowRedirects(false);
        http.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "chat-review-service"));
        http.setMaxConnectionsPerDestination(MAX_CONNECTIONS);
        http.setMaxRequestsQueuedPerDestination(MAX_CONNECTIONS);
        // the stream's own timeouts decide (CompletionStream); the client's only closes what they left open
        http.setIdleTimeout(settings.firstTokenTimeout()
                .plus(settings.idleTimeout())
                .plusSeconds(5)
                .toMillis());
        try {
            http.start();
        } catch (Exception e) {
            throw new IllegalStateException("The AI provider's HTTP client did not start", e);
        }
    }

    /** The model asked for; a reply names the one that answered when the provider says. */
    String model() {
        return model;
    }

    /**
     * A streamed chat completion request with this body. Local servers (Ollama, llama.cpp, vLLM) need no key: without
     * one, no Authorization header is sent at all.
     */
    Request request(byte[] body) {
        return http.newRequest(completions)
                .method(HttpMethod.POST)
                .headers(headers -> {
                    headers.put(HttpHeader.ACCEPT, "text/event-stream");
                    if (!apiKey.isEmpty()) {
                        headers.put(HttpHeader.AUTHORIZATION, "Bearer " + apiKey);
                    }
                })
                .body(new BytesRequestContent("application/json", body));
    }

    /** A message that may quote the provider, without the API key in it. */
    String redact(String message) {
        return apiKey.isEmpty() || message == null ? message : message.replace(apiKey, "[AI_API_KEY]");
    }

    @Override
    public void close() {
        try {
            http.stop();
        } catch (Exception e) {
            throw new IllegalStateException("The AI provider's HTTP client did not stop", e);
        }
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
