package com.chatreview.webhook;

import com.chatreview.outbound.DestinationRefused;
import com.chatreview.outbound.Destinations;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
class WebhookDeliverer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WebhookDeliverer.class);

    private static final Duration POLL = Duration.ofSeconds(1);
    /** Attempts under way at once on a node; each ends within the timeouts, a new claim fills each freed slot. */
    private static final int IN_FLIGHT = 32;

    private final Deliveries deliveries;
    private final Endpoints endpoints;
    private final SigningSecrets secrets;
    private final Destinations destinations;
    private final List<Duration> retries;
    private final Duration timeout;
    /** A claim outlives the longest attempt: a node that dies mid-attempt leaves it to another after this. */
    private final Duration lease;

    private final HttpClient http;
    private final Semaphore sending = new Semaphore(IN_FLIGHT);
    private final Map<String, Counter> outcomes;
    private volatile @Nullable Thread loop;
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

    /** Something was recorded: look now rather than at the next poll. */
    void wake() {
        Thread current = loop;
        if (current != null) {
            LockSupport.unpark(current);
        }
    }

    @Override
    public void start() {
        try {
            http.start();
        } catch (Exception e) {
            throw new IllegalStateException("The webhooks' HTTP client did not start", e);
        }
        running = true;
        loop = Thread.ofVirtual().name("webhook-deliverer").start(this::run);
    }

    @Override
    public void stop() {
        running = false;
        Thread current = loop;
        if (current != null) {
            current.interrupt();
        }
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

    private void run() {
        while (running) {
            try {
                int free = sending.availablePermits();
                if (free == 0) {
                    sending.acquire(); // until one attempt ends: a slow receiver holds up its own slot only
                    sending.release();
                    continue;
                }
                List<Deliveries.Claimed> claimed = deliveries.claimDue(free, lease);
                if (claimed.isEmpty()) {
                    LockSupport.parkNanos(POLL.toNanos());
                    continue;
                }
                for (Deliveries.Claimed delivery : claimed) {
                    sending.acquire();
                    Thread.ofVirtual().start(() -> {
                        try {
                            attempt(delivery);
                        } finally {
                            sending.release();
                        }
                    });
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                log.warn("Looking for webhook deliveries failed; trying again: {}", e.toString());
                LockSupport.parkNanos(POLL.toNanos());
            }
        }
    }

    void attempt(Deliveries.Claimed delivery) {
        Instant started = Instant.now();
        long timestamp = started.getEpochSecond();
        Integer status = null;
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
        failed(delivery, status, error, millisSince(started));
    }

    private void failed(Deliveries.Claimed delivery, @Nullable Integer status, @Nullable String error, long latency) {
        int attempt = delivery.attempts() + 1;
        if (attempt <= retries.size()) {
            Duration wait = retries.get(attempt - 1);
            long jitter = (long) (wait.toMillis() * (ThreadLocalRandom.current().nextDouble(-0.2, 0.2)));
            deliveries.attemptFailed(
                    delivery.id(),
                    status,
                    error,
                    latency,
                    Instant.now().plus(wait).plusMillis(jitter));
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
