package com.chatreview.assistant;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A chat-completions endpoint on 127.0.0.1 that answers each request with the next scripted response, for the
 * cases mock-llm cannot express: HTTP errors on a streaming request, usage in the stream, a stream that stops
 * or breaks, silence in the middle. It records what it was asked.
 */
final class ScriptedEndpoint implements AutoCloseable {

    /** One scripted answer to one request. */
    @FunctionalInterface
    interface Response {
        void send(HttpExchange exchange) throws Exception;
    }

    record Request(String path, String authorization, String body) {}

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Response> script = new ConcurrentLinkedQueue<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    ScriptedEndpoint() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    ScriptedEndpoint then(Response response) {
        script.add(response);
        return this;
    }

    List<Request> requests() {
        return requests;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(new Request(
                exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Authorization"), body));
        Response response = script.poll();
        try {
            if (response == null) {
                status(500, "{\"error\":{\"message\":\"no scripted response left\"}}")
                        .send(exchange);
            } else {
                response.send(exchange);
            }
        } catch (Exception e) {
            // the client went away, or the script broke the connection on purpose
        } finally {
            exchange.close();
        }
    }

    /** A plain (non-streaming) answer with this status and JSON body. */
    static Response status(int status, String json) {
        return exchange -> {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        };
    }

    /** An event stream of these {@code data:} payloads, in order, flushed one by one. */
    static Response events(String... data) {
        return exchange -> {
            OutputStream out = startStream(exchange);
            for (String event : data) {
                send(out, event);
            }
        };
    }

    static OutputStream startStream(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        return exchange.getResponseBody();
    }

    static void send(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** A chunk carrying a piece of the reply. */
    static String token(String text) {
        return "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"scripted-model\","
                + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"},\"finish_reason\":null}]}";
    }

    static String finish(String reason) {
        return "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"scripted-model\","
                + "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"" + reason + "\"}]}";
    }

    static String usage(int prompt, int completion) {
        return "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"scripted-model\","
                + "\"choices\":[],\"usage\":{\"prompt_tokens\":" + prompt + ",\"completion_tokens\":" + completion
                + ",\"total_tokens\":" + (prompt + completion) + "}}";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
