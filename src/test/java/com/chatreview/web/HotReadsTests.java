package com.chatreview.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.database.DatabaseSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.StatisticsHandler;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/**
 * The handler ahead of the servlet container: a plain GET a route answers is written from the route's answer with
 * the request id and recorded in the request timer; everything else reaches the next handler (the servlet context)
 * as if nothing had been asked, with what the route remembered in the request's attributes.
 */
class HotReadsTests {

    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final List<String> passedOn = new CopyOnWriteArrayList<>();
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private Function<HotRequest, @Nullable HotAnswer> answers = request -> null;
    private final Server server = new Server();
    private final LocalConnector connector = new LocalConnector(server);

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void aGetTheRouteAnswersIsWrittenFromTheAnswer() throws Exception {
        answers = request -> new HotAnswer(
                200,
                "/hot/{id}",
                ordered("ETag", "\"0123456789abcdef\"", "X-RateLimit-Limit", "100"),
                "{\"id\":\"ü\"}".getBytes(StandardCharsets.UTF_8));
        start(10, Duration.ofSeconds(3));

        HttpTester.Response response = get("GET /hot/1 HTTP/1.1\r\nHost: x\r\nX-Request-Id: client-id.1\r\n\r\n");

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getContent()).isEqualTo("{\"id\":\"ü\"}");
        assertThat(response.get("Content-Type")).isEqualTo("application/json");
        assertThat(response.get("Content-Length")).isEqualTo("11");
        assertThat(response.get("ETag")).isEqualTo("\"0123456789abcdef\"");
        assertThat(response.get("X-RateLimit-Limit")).isEqualTo("100");
        assertThat(response.get("X-Request-Id")).isEqualTo("client-id.1");
        assertThat(passedOn).isEmpty();
        Timer timer = registry.get("http.server.requests")
                .tags("uri", "/hot/{id}", "status", "200", "outcome", "SUCCESS", "method", "GET")
                .tags("exception", "none", "error", "none")
                .timer();
        assertThat(timer.count()).isEqualTo(1);

        String fresh = get("GET /hot/1 HTTP/1.1\r\nHost: x\r\nX-Request-Id: not sane!\r\n\r\n")
                .get("X-Request-Id");
        assertThat(fresh).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    }

    @Test
    void aNotModifiedAnswerHasNoBody() throws Exception {
        answers = request -> new HotAnswer(304, "/hot/{id}", ordered("ETag", "\"0123456789abcdef\""), new byte[0]);
        start(10, Duration.ofSeconds(3));

        HttpTester.Response response = get("GET /hot/1 HTTP/1.1\r\nHost: x\r\n\r\n");

        assertThat(response.getStatus()).isEqualTo(304);
        assertThat(response.getContent()).isEmpty();
        assertThat(response.get("Content-Type")).isNull();
        assertThat(response.get("ETag")).isEqualTo("\"0123456789abcdef\"");
        assertThat(registry.get("http.server.requests")
                        .tags("status", "304", "outcome", "REDIRECTION")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void aRequestTheRouteLeavesGoesOnWithWhatTheRouteRemembered() throws Exception {
        answers = request -> {
            request.setAttribute("remembered", "the key check");
            return null;
        };
        start(10, Duration.ofSeconds(3));

        HttpTester.Response response = get("GET /hot/1?x=1 HTTP/1.1\r\nHost: x\r\n\r\n");

        assertThat(response.getStatus()).isEqualTo(299);
        assertThat(asked).containsExactly("/hot/1?x=1");
        assertThat(passedOn).hasSize(1);
        assertThat(passedOn.getFirst()).startsWith("GET /hot/1 remembered=the key check requestId=");

        answers = request -> {
            throw new IllegalStateException("not found: the controller answers the problem");
        };
        assertThat(get("GET /hot/2 HTTP/1.1\r\nHost: x\r\n\r\n").getStatus()).isEqualTo(299);
        assertThat(registry.find("http.server.requests").timers()).isEmpty();
    }

    @Test
    void onlyAPlainGetOfARoutesPathIsOffered() throws Exception {
        answers = request -> new HotAnswer(200, "/hot/{id}", Map.of(), "{}".getBytes(StandardCharsets.UTF_8));
        start(10, Duration.ofSeconds(3));

        for (String request : List.of(
                "HEAD /hot/1 HTTP/1.1\r\nHost: x\r\n\r\n",
                "POST /hot/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
                "GET /cold/1 HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /hot/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
                "GET /hot/1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
                "GET /hot/1 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n")) {
            assertThat(get(request).getStatus()).as(request).isEqualTo(299);
        }
        assertThat(asked).isEmpty();
        assertThat(passedOn).hasSize(6);
        assertThat(get("GET /hot/1 HTTP/1.1\r\nHost: x\r\n\r\n").getStatus()).isEqualTo(200);
    }

    @Test
    void aRouteWaitsForItsTurnAsEveryReadDoes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        answers = request -> {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            inside.decrementAndGet();
            return new HotAnswer(200, "/hot/{id}", Map.of(), "{}".getBytes(StandardCharsets.UTF_8));
        };
        start(1, Duration.ofSeconds(10));

        List<Thread> readers = List.of(
                Thread.ofVirtual().start(() -> get("GET /hot/1 HTTP/1.1\r\nHost: x\r\n\r\n")),
                Thread.ofVirtual().start(() -> get("GET /hot/2 HTTP/1.1\r\nHost: x\r\n\r\n")));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (asked.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(200);
        assertThat(asked).as("one turn: the second read waits for it").hasSize(1);
        release.countDown();
        for (Thread reader : readers) {
            assertThat(reader.join(Duration.ofSeconds(10))).isTrue();
        }
        assertThat(asked).hasSize(2);
        assertThat(most.get()).isEqualTo(1);
    }

    @Test
    void goesInsideWhatSpringBootWrapsAroundTheContext() {
        Server jetty = new Server();
        ContextHandler context = new ContextHandler();
        StatisticsHandler statistics = new StatisticsHandler(context);
        jetty.setHandler(statistics);

        hotReads(10, Duration.ofSeconds(3)).customize(jetty);

        assertThat(jetty.getHandler()).isSameAs(statistics);
        assertThat(statistics.getHandler()).isNotSameAs(context);
        assertThat(((Handler.Singleton) statistics.getHandler()).getHandler()).isSameAs(context);
    }

    private void start(int poolSize, Duration timeout) throws Exception {
        server.addConnector(connector);
        server.setHandler(hotReads(poolSize, timeout).wrap(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                passedOn.add(request.getMethod() + " " + request.getHttpURI().getPath()
                        + " remembered=" + request.getAttribute("remembered")
                        + " requestId=" + request.getAttribute(RequestIds.ATTRIBUTE));
                response.setStatus(299);
                callback.succeeded();
                return true;
            }
        }));
        server.start();
    }

    private HotReads hotReads(int poolSize, Duration timeout) {
        HotRoute route = new HotRoute() {
            @Override
            public String pathPrefix() {
                return "/hot/";
            }

            @Override
            public @Nullable HotAnswer answer(HotRequest request) {
                asked.add(request.path() + (request.query() == null ? "" : "?" + request.query()));
                return answers.apply(request);
            }
        };
        StaticListableBeanFactory beans = new StaticListableBeanFactory(Map.of("route", route, "registry", registry));
        ReadAdmission admission =
                new ReadAdmission(new DatabaseSettings(null, null, null, Path.of("."), poolSize, timeout));
        return new HotReads(
                beans.getBeanProvider(HotRoute.class), beans.getBeanProvider(MeterRegistry.class), admission);
    }

    private HttpTester.Response get(String request) {
        try {
            return HttpTester.parseResponse(connector.getResponse(request, 15, TimeUnit.SECONDS));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Map<String, String> ordered(String... namesAndValues) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }
}
