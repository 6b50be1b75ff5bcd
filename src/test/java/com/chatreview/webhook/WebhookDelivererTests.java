package com.chatreview.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import com.chatreview.outbound.Destinations;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A delivery's destination is checked as the client connects (its resolver is the check): a name that now resolves
 * inside is not called.
 */
class WebhookDelivererTests {

    record Failure(
            UUID id,
            @Nullable Integer status,
            @Nullable String error,
            @Nullable Instant next) {}

    @Test
    void aHostThatNowResolvesToAPrivateAddressIsNotCalled() {
        List<Failure> failures = new ArrayList<>();
        WebhookSettings settings = new WebhookSettings(false, false, List.of(), Duration.ofSeconds(10));
        WebhookDeliverer deliverer = deliverer(
                failures,
                new Destinations(settings.destinationPolicy(), host -> List.of(InetAddress.getByName("10.0.0.8"))));
        UUID id = UUID.randomUUID();

        deliverer.start();
        try {
            deliverer.attempt(new Deliveries.Claimed(
                    id, UUID.randomUUID(), UUID.randomUUID(), "https://hooks.example.org/in", "{}", 0));
        } finally {
            deliverer.stop();
        }

        assertThat(failures).hasSize(1);
        Failure failure = failures.getFirst();
        assertThat(failure.id()).isEqualTo(id);
        assertThat(failure.status()).isNull();
        assertThat(failure.error()).contains("10.0.0.8");
        assertThat(failure.next()).as("tried again later: DNS may change back").isNotNull();
    }

    /**
     * An endpoint that answers {@code 302} to the cloud's metadata address gets a failed attempt with that status:
     * the client follows no redirect, so nothing is asked of where it points (here a second path of the same
     * server, counted, since a test cannot watch 169.254.169.254).
     */
    @Test
    void aRedirectIsAFailedAttemptAndIsNotFollowed() throws Exception {
        java.util.concurrent.atomic.AtomicInteger followed = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer server =
                com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        int port = server.getAddress().getPort();
        server.createContext("/in", exchange -> {
            exchange.getResponseHeaders().add("Location", "http://127.0.0.1:" + port + "/latest/meta-data/");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.createContext("/latest/meta-data/", exchange -> {
            followed.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        List<Failure> failures = new ArrayList<>();
        try {
            WebhookSettings settings = new WebhookSettings(true, true, List.of(), Duration.ofSeconds(10));
            WebhookDeliverer deliverer = deliverer(
                    failures,
                    new Destinations(settings.destinationPolicy(), host -> List.of(InetAddress.getByName(host))));
            deliverer.start();
            try {
                deliverer.attempt(new Deliveries.Claimed(
                        UUID.randomUUID(),
                        UUID.randomUUID(),
                        UUID.randomUUID(),
                        "http://127.0.0.1:" + port + "/in",
                        "{}",
                        0));
            } finally {
                deliverer.stop();
            }
        } finally {
            server.stop(0);
        }

        assertThat(failures).hasSize(1);
        assertThat(failures.getFirst().status()).isEqualTo(302);
        assertThat(followed).as("the redirect's target was never asked").hasValue(0);
    }

    /**
     * A receiver that answers {@code 429} or {@code 503} with {@code Retry-After} is tried again after the wait it
     * asks for where that is longer than the next retry delay (5 s here), and after the delay where it is shorter.
     */
    @Test
    void aReceiversRetryAfterIsWaitedForWhenLongerThanTheNextDelay() throws Exception {
        assertThat(nextAttemptAfter(429, "600")).isBetween(Duration.ofSeconds(590), Duration.ofSeconds(601));
        assertThat(nextAttemptAfter(503, "1")).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(7));
        assertThat(nextAttemptAfter(429, "86400")).as("at most an hour").isLessThanOrEqualTo(Duration.ofHours(1));
    }

    private static Duration nextAttemptAfter(int status, String retryAfter) throws Exception {
        com.sun.net.httpserver.HttpServer server =
                com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/in", exchange -> {
            exchange.getResponseHeaders().add("Retry-After", retryAfter);
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        List<Failure> failures = new ArrayList<>();
        try {
            WebhookSettings settings = new WebhookSettings(true, true, List.of(), Duration.ofSeconds(10));
            WebhookDeliverer deliverer = deliverer(
                    failures,
                    new Destinations(settings.destinationPolicy(), host -> List.of(InetAddress.getByName(host))));
            deliverer.start();
            try {
                deliverer.attempt(new Deliveries.Claimed(
                        UUID.randomUUID(),
                        UUID.randomUUID(),
                        UUID.randomUUID(),
                        "http://127.0.0.1:" + server.getAddress().getPort() + "/in",
                        "{}",
                        0));
            } finally {
                deliverer.stop();
            }
        } finally {
            server.stop(0);
        }
        assertThat(failures).hasSize(1);
        assertThat(failures.getFirst().status()).isEqualTo(status);
        return Duration.between(
                Instant.now(),
                java.util.Objects.requireNonNull(failures.getFirst().next()));
    }

    private static WebhookDeliverer deliverer(List<Failure> failures, Destinations destinations) {
        Deliveries deliveries = new Deliveries(mock(JdbcClient.class)) {
            @Override
            void attemptFailed(
                    UUID id, @Nullable Integer status, @Nullable String error, long latency, @Nullable Instant next) {
                failures.add(new Failure(id, status, error, next));
            }

            @Override
            void delivered(UUID id, int status, long latency, Instant now) {
                throw new AssertionError("delivered where it must not be");
            }

            @Override
            List<Claimed> claimDue(int limit, Duration lease) {
                return List.of();
            }
        };
        Endpoints endpoints = new Endpoints(mock(JdbcClient.class)) {
            @Override
            List<byte[]> sealedSecrets(UUID endpointId, Instant now) {
                return List.of();
            }
        };
        return new WebhookDeliverer(
                deliveries,
                endpoints,
                mock(SigningSecrets.class),
                destinations,
                new WebhookSettings(false, false, List.of(Duration.ofSeconds(5)), Duration.ofSeconds(10)),
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
    }
}
