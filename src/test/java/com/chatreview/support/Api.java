package com.chatreview.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small HTTP client for the tests: real requests to the running service. Each request comes from its own
 * made-up client address ({@code X-Forwarded-For}) unless a test names one, so that the per-address limit on
 * failed authentications of one test never spills into another.
 */
public final class Api {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = client();

    /**
     * Pooled connections are dropped after 20 s idle, before the server's 30 s idle timeout closes them: a request
     * sent on a connection the server is closing fails, and the JDK client does not resend a POST.
     */
    private static HttpClient client() {
        System.setProperty("jdk.httpclient.keepalive.timeout", "20");
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    private final String baseUrl;
    private final Map<String, String> headers;

    public Api(int port) {
        this("http://127.0.0.1:" + port, Map.of());
    }

    private Api(String baseUrl, Map<String, String> headers) {
        this.baseUrl = baseUrl;
        this.headers = headers;
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** The same client, sending this header too. */
    public Api with(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new Api(baseUrl, more);
    }

    public Reply get(String path) {
        return send("GET", path, BodyPublishers.noBody(), null);
    }

    public Reply delete(String path) {
        return send("DELETE", path, BodyPublishers.noBody(), null);
    }

    public Reply post(String path, String json) {
        return send("POST", path, BodyPublishers.ofString(json), "application/json");
    }

    public Reply put(String path, String json) {
        return send("PUT", path, BodyPublishers.ofString(json), "application/json");
    }

    public Reply patch(String path, String json) {
        return send("PATCH", path, BodyPublishers.ofString(json), "application/json");
    }

    public Reply send(String method, String path, BodyPublisher body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(60))
                .method(method, body);
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (!headers.containsKey("X-Forwarded-For")) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            request.header(
                    "X-Forwarded-For",
                    "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(1, 255));
        }
        headers.forEach(request::header);
        try {
            HttpResponse<byte[]> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A multipart/form-data body, built by hand so tests can send exactly what they mean to. */
    public static final class Multipart {
        private final String boundary = "----test" + UUID.randomUUID();
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        public Multipart field(String name, String value) {
            write("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value
                    + "\r\n");
            return this;
        }

        public Multipart file(String name, String fileName, String contentType, byte[] content) {
            write("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\"" + fileName
                    + "\"\r\nContent-Type: " + contentType + "\r\n\r\n");
            body.writeBytes(content);
            write("\r\n");
            return this;
        }

        public Multipart file(String fileName, String content) {
            return file("files", fileName, "text/plain", content.getBytes(StandardCharsets.UTF_8));
        }

        public String contentType() {
            return "multipart/form-data; boundary=" + boundary;
        }

        public BodyPublisher publisher() {
            ByteArrayOutputStream complete = new ByteArrayOutputStream();
            complete.writeBytes(body.toByteArray());
            complete.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
            return BodyPublishers.ofByteArray(complete.toByteArray());
        }

        private void write(String text) {
            body.writeBytes(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    public Reply upload(String path, Multipart multipart) {
        return send("POST", path, multipart.publisher(), multipart.contentType());
    }

    public record Reply(HttpResponse<byte[]> response) {

        public int status() {
            return response.statusCode();
        }

        public String text() {
            return new String(response.body(), StandardCharsets.UTF_8);
        }

        public JsonNode json() {
            return JSON.readTree(response.body());
        }

        public String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        public List<String> fieldNames() {
            List<String> names = new ArrayList<>();
            json().propertyNames().forEach(names::add);
            return names;
        }

        @Override
        public String toString() {
            return status() + " " + text();
        }
    }
}
