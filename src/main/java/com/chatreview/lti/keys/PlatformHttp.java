package com.chatreview.lti.keys;

import com.chatreview.outbound.DestinationRefused;
import com.chatreview.outbound.Destinations;
import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.client.WWWAuthenticationProtocolHandler;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;

/**
 * The tool's HTTP client towards platforms: it connects only to the addresses {@link Destinations} allows, as it
 * connects (no DNS rebinding), follows no redirect, waits a few seconds at most and reads a bounded answer. It
 * fetches platforms' JWKS for nimbus ({@link ResourceRetriever}).
 */
public final class PlatformHttp implements ResourceRetriever, AutoCloseable {

    private static final Duration LONGEST_CONNECT = Duration.ofSeconds(5);
    /** A JWKS of a few keys is a few KiB; a platform's answer is cut off past this. */
    public static final int MAX_ANSWER = 256 * 1024;

    private final HttpClient http = new HttpClient();
    private final Destinations destinations;
    private final Duration timeout;

    /** A URL the service does not connect to (its scheme, credentials in it): asking again will not help. */
    public static final class Refused extends IOException {
        Refused(String message) {
            super(message);
        }
    }

    /** {@code timeout}: how long an answer may take ({@code lti.platform-timeout}); connecting, at most 5 s of it. */
    /** How long an answer may take. */
    Duration timeout() {
        return timeout;
    }

    PlatformHttp(Destinations destinations, Duration timeout) {
        this.destinations = destinations;
        this.timeout = timeout;
        http.setFollowRedirects(false);
        http.setConnectTimeout(Math.min(timeout.toMillis(), LONGEST_CONNECT.toMillis()));
        http.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "chat-review-service LTI tool"));
        http.setSocketAddressResolver(destinations.connectingResolver());
        try {
            http.start();
            // a 401 is the caller's to read (a token to fetch again, a registration refused): Jetty's handler, added
            // as the client starts, would fail a 401 without a WWW-Authenticate header as a protocol violation
            http.getProtocolHandlers().remove(WWWAuthenticationProtocolHandler.NAME);
        } catch (Exception e) {
            throw new IllegalStateException("The LTI HTTP client did not start", e);
        }
    }

    @Override
    public Resource retrieveResource(URL url) throws IOException {
        ContentResponse response;
        try {
            var request = http.newRequest(url.toURI())
                    .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .headers(headers -> headers.put(HttpHeader.ACCEPT, "application/json"));
            response = new CompletableResponseListener(request, MAX_ANSWER)
                    .send()
                    .get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (URISyntaxException e) {
            throw new IOException("not a URL: " + url, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IOException(cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IOException("no answer from " + url + " within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (response.getStatus() != 200) {
            throw new IOException(url + " answered " + response.getStatus());
        }
        return new Resource(response.getContentAsString(), response.getMediaType());
    }

    /** What a platform answered: its status, body (cut off past {@link #MAX_ANSWER}) and headers. */
    public record Answer(int status, String body, HttpFields headers) {}

    /**
     * Gets the resource and waits for the answer.
     *
     * @throws IOException when no answer came (refused, timed out, not allowed to connect)
     */
    public Answer get(URI uri, Map<String, String> headers) throws IOException {
        return send(http.newRequest(uri).method(HttpMethod.GET).headers(fields -> headers.forEach(fields::put)), uri);
    }

    /**
     * Posts {@code body} and waits for the answer.
     *
     * @throws IOException when no answer came (refused, timed out, not allowed to connect)
     */
    public Answer post(URI uri, String contentType, String body, Map<String, String> headers) throws IOException {
        return send(
                http.newRequest(uri)
                        .method(HttpMethod.POST)
                        .body(new StringRequestContent(contentType, body, StandardCharsets.UTF_8))
                        .headers(fields -> headers.forEach(fields::put)),
                uri);
    }

    private Answer send(Request request, URI uri) throws IOException {
        try {
            // the URLs of a launch's claims (line items, containers) and of a platform's answers (next pages) are
            // the platform's word: held to the rules of a registered URL (the addresses, as the client connects)
            destinations.checkedForm("a platform's URL", uri.toString());
        } catch (DestinationRefused refused) {
            throw new Refused(String.valueOf(refused.getMessage()));
        }
        CappedAnswer answer = new CappedAnswer();
        try {
            request.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).send(answer);
            return answer.result.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IOException(String.valueOf(cause.getMessage()), cause);
        } catch (TimeoutException e) {
            request.abort(e);
            throw new IOException("no answer from " + uri + " within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /**
     * The answer's first {@link #MAX_ANSWER} bytes, the rest read and dropped: a platform that took a score and
     * answered at length took it all the same (failing the answer would send the score again).
     */
    private static final class CappedAnswer implements Response.Listener {
        final CompletableFuture<Answer> result = new CompletableFuture<>();
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        @Override
        public void onContent(Response response, ByteBuffer content) {
            int room = MAX_ANSWER - body.size();
            if (room > 0) {
                byte[] bytes = new byte[Math.min(room, content.remaining())];
                content.get(bytes);
                body.writeBytes(bytes);
            }
        }

        @Override
        public void onComplete(Result outcome) {
            if (outcome.isFailed()) {
                result.completeExceptionally(outcome.getFailure());
                return;
            }
            Response response = outcome.getResponse();
            result.complete(
                    new Answer(response.getStatus(), body.toString(StandardCharsets.UTF_8), response.getHeaders()));
        }
    }

    @Override
    public void close() throws Exception {
        http.stop();
    }
}
