package com.chatreview.webhook;

import com.chatreview.outbound.DestinationRefused;
import com.chatreview.outbound.Destinations;
import com.chatreview.outbound.OutboxWorker;
import com.chatreview.outbound.RetryAfter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Sends the recorded deliveries (Standard Webhooks): every node claims due ones ({@link Deliveries#claimDue}: one
 * node per attempt), signs each with its endpoint's secrets, posts it, and records the answer. A delivery that is
 * not answered 2xx within the timeout is tried again after each of the retry delays (by default 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h, each ±20 %: about 28 h in all); then it fails, and an endpoint none of whose deliveries
 * succeeded meanwhile is disabled.
 */
class WebhookDeliverer implements OutboxWorker.Outbox<Deliveries.Claimed>, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WebhookDeliverer.class);

    /**
     * Attempts under way at once on a node (each ends within the timeouts, a new claim fills each freed slot), of
     * them at most as many to one endpoint as every node's together may have ({@link Deliveries#claimDue} counts
     * those).
     */
    static final OutboxWorker.Limits LIMITS =
            new OutboxWorker.Limits(32, Deliveries.PER_ENDPOINT_IN_FLIGHT, Duration.ofSeconds(1));

    private final Deliveries deliveries;
    private final Endpoints endpoints;
    private final SigningSecrets secrets;
    private final Destinations destinations;
    private final List<Duration> retries;
    private final Duration timeout;
    /** A claim outlives the longest attempt: a node that dies mid-attempt leaves it to another after this. */
    private final Duration lease;

    private final HttpClient http;
    private final Map<String, Counter> outcomes;
    private volatile boolean running;

    WebhookDeliverer(
            Deliveries deliveries,
            Endpoints endpoints,
            SigningSecrets secrets,
            Destinations destinations,
            WebhookSettings settings,
            MeterRegistry meters) {
        this.deliveries = deliveries;
        this.outcomes = Map.of(
                "delivered", outcome(meters, "delivered"),
                "retrying", outcome(meters, "retrying"),
                "failed", outcome(meters, "failed"));
        this.endpoints = endpoints;
        this.secrets = secrets;
        this.destinations = destinations;
        this.retries = settings.retryDelays();
        this.timeout = settings.timeout();
        this.lease = settings.claimLease();
        this.http = new HttpClient();
        http.setFollowRedirects(false);
        http.setConnectTimeout(settings.connectTimeout().toMillis());
        http.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "chat-review-service webhooks"));
        if (destinations != null) {
            http.setSocketAddressResolver(destinations.connectingResolver());
        }
    }

    private static Counter outcome(MeterRegistry meters, String outcome) {
        return Counter.builder("webhook.deliveries")
                .description("Delivery attempts, by outcome: delivered, retrying (failed, tried again later) or failed"
                        + " (the last attempt failed)")
                .tag("outcome", outcome)
                .register(meters);
    }

    /** Every outcome's counter is registered at start. */
    private Counter outcome(String outcome) {
        return Objects.requireNonNull(outcomes.get(outcome), outcome);
    }

    @Override
    public void start() {
        try {
            http.start();
        } catch (Exception e) {
            throw new IllegalStateException("The webhooks' HTTP client did not start", e);
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        try {
            http.stop();
        } catch (Exception e) {
            log.debug("Stopping the webhooks' HTTP client failed", e);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** The endpoints' own caps are counted in the claim, over every node's deliveries. */
    @Override
    public List<Deliveries.Claimed> claimDue(int limit, Set<String> busy) {
        return deliveries.claimDue(limit, lease);
    }

    @Override
    public String destination(Deliveries.Claimed delivery) {
        return delivery.endpointId().toString();
    }

    @Override
    public void send(Deliveries.Claimed delivery) {
        attempt(delivery);
    }

    void attempt(Deliveries.Claimed delivery) {
        Instant started = Instant.now();
        long timestamp = started.getEpochSecond();
        Integer status = null;
        Duration asked = Duration.ZERO;
        String error;
        try {
            // the host is resolved, and checked, by the client as it connects (Destinations.connectingResolver)
            String signature = signatures(delivery, timestamp);
            InputStreamResponseListener listener = new InputStreamResponseListener();
            http.newRequest(URI.create(delivery.url()))
                    .method(HttpMethod.POST)
                    .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .headers(headers -> headers.put(
                                    "webhook-id", delivery.eventId().toString())
                            .put("webhook-timestamp", Long.toString(timestamp))
                            .put("webhook-signature", signature))
                    .body(new StringRequestContent("application/json", delivery.payload(), StandardCharsets.UTF_8))
                    .send(listener);
            Response response = listener.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            status = response.getStatus();
            // the answer's body is neither read nor kept: what a URL answers must not be readable back through the
            // deliveries list (a target that answers would leak its content); closing cuts it off
            listener.getInputStream().close();
            if (status >= 200 && status < 300) {
                deliveries.delivered(delivery.id(), status, millisSince(started), Instant.now());
                outcome("delivered").increment();
                return;
            }
            error = "answered " + status;
            asked = RetryAfter.of(response.getHeaders().get(HttpHeader.RETRY_AFTER));
        } catch (DestinationRefused refused) {
            error = refused.getMessage();
        } catch (ExecutionException failed) {
            error = failed.getCause() instanceof DestinationRefused refused
                    ? refused.getMessage()
                    : describe(failed.getCause() == null ? failed : failed.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return; // the claim lapses; another node (or this one, restarted) tries again
        } catch (Exception e) {
            error = describe(e);
        }
        failed(delivery, status, error, millisSince(started), asked);
    }

    /** Tried again after the next retry delay, or the wait the receiver asked for ({@code Retry-After}) if longer. */
    private void failed(
            Deliveries.Claimed delivery,
            @Nullable Integer status,
            @Nullable String error,
            long latency,
            Duration asked) {
        int attempt = delivery.attempts() + 1;
        if (attempt <= retries.size()) {
            Duration wait = retries.get(attempt - 1);
            long jitter = (long) (wait.toMillis() * (ThreadLocalRandom.current().nextDouble(-0.2, 0.2)));
            Instant next = Instant.now().plus(wait).plusMillis(jitter);
            Instant askedFor = Instant.now().plus(asked);
            deliveries.attemptFailed(delivery.id(), status, error, latency, askedFor.isAfter(next) ? askedFor : next);
            outcome("retrying").increment();
            return;
        }
        deliveries.attemptFailed(delivery.id(), status, error, latency, null);
        outcome("failed").increment();
        Instant firstTry = Instant.now().minus(retries.stream().reduce(Duration.ZERO, Duration::plus));
        if (!deliveries.anyDeliveredSince(delivery.endpointId(), firstTry)) {
            endpoints.disable(
                    delivery.endpointId(),
                    "every delivery failed for " + attempt + " attempts; the last: " + error,
                    Instant.now());
            log.warn("Disabled webhook endpoint {}: {}", delivery.endpointId(), error);
        }
    }

    /** {@code v1,<base64 HMAC-SHA256 of id.timestamp.body>} for each secret that signs now, space-separated. */
    private String signatures(Deliveries.Claimed delivery, long timestamp) throws GeneralSecurityException {
        byte[] signed =
                (delivery.eventId() + "." + timestamp + "." + delivery.payload()).getBytes(StandardCharsets.UTF_8);
        List<String> signatures = new ArrayList<>();
        for (byte[] sealed : endpoints.sealedSecrets(delivery.endpointId(), Instant.now())) {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(SigningSecrets.signingKey(secrets.open(sealed)), "HmacSHA256"));
            signatures.add("v1," + Base64.getEncoder().encodeToString(mac.doFinal(signed)));
        }
        return String.join(" ", signatures);
    }

    private static String describe(Throwable failure) {
        return failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    }

    private static long millisSince(Instant started) {
        return TimeUnit.NANOSECONDS.toMillis(
                Duration.between(started, Instant.now()).toNanos());
    }
}
