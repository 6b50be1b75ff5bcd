package com.chatreview.web;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * Serves the {@link HotRoute}s from a Jetty handler just outside the servlet context: a plain GET without a body
 * that a route answers never enters the servlet layers (the context, session and security handlers, the servlet
 * channel, the filter chain), which cost a get-chat about 40 % of its CPU (docs/benchmarks.md, "The hot reads
 * against the reference"). What the filters do for every request is done here too: the request id ({@link
 * RequestIds}, in the response and the log lines), the read's turn ({@link ReadAdmission}), and the {@code
 * http.server.requests} timer with the tags Spring's observation gives it. A request the route leaves, or any other,
 * goes on into the servlet context as if this handler were not there.
 */
@Component
class HotReads implements JettyServerCustomizer {

    private final ObjectProvider<HotRoute> routeProvider;
    private final ObjectProvider<MeterRegistry> registryProvider;
    private final ReadAdmission admission;
    private final Map<TimerKey, Timer> timers = new ConcurrentHashMap<>();
    private volatile @Nullable List<HotRoute> routes;

    /**
     * The routes and the registry are looked up at the first request: this customizer is made with the web server,
     * before the properties registered late (a test's database, say) are bound.
     */
    HotReads(ObjectProvider<HotRoute> routes, ObjectProvider<MeterRegistry> registry, ReadAdmission admission) {
        this.routeProvider = routes;
        this.registryProvider = registry;
        this.admission = admission;
    }

    @Override
    public void customize(Server server) {
        // inside whatever Spring Boot wraps around the context (the graceful shutdown's statistics), so that a
        // read served here still counts as a request in flight
        Handler.Singleton parent = server;
        while (!(parent.getHandler() instanceof ContextHandler)
                && parent.getHandler() instanceof Handler.Singleton inner) {
            parent = inner;
        }
        parent.setHandler(wrap(parent.getHandler()));
    }

    /** The handler that answers the hot routes and hands everything else to {@code next}. */
    Handler wrap(Handler next) {
        return new Handler.Wrapper(next) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                return served(request, response, callback) || super.handle(request, response, callback);
            }
        };
    }

    private boolean served(Request request, Response response, Callback callback) {
        if (!"GET".equals(request.getMethod())) {
            return false;
        }
        String path = request.getHttpURI().getPath();
        HotRoute route = path == null ? null : routeFor(path);
        if (route == null || hasBody(request) || request.getHeaders().contains(HttpHeader.UPGRADE)) {
            return false;
        }
        long start = System.nanoTime();
        String requestId = RequestIds.idFor(request.getHeaders().get(RequestIds.HEADER));
        request.setAttribute(RequestIds.ATTRIBUTE, requestId);
        MDC.put(RequestIds.MDC_KEY, requestId);
        boolean admitted = admission.enter();
        try {
            HotAnswer answer;
            try {
                answer = route.answer(new HotRequest(
                        path,
                        request.getHttpURI().getQuery(),
                        request.getHeaders(),
                        Request.getRemoteAddr(request),
                        request));
            } catch (RuntimeException leftToTheController) {
                answer = null;
            }
            if (answer == null) {
                return false;
            }
            // recorded as the write starts: Jetty may finish writing on another thread after this returns
            timer(answer).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            write(answer, requestId, response, callback);
            return true;
        } finally {
            admission.leave(admitted);
            MDC.remove(RequestIds.MDC_KEY);
        }
    }

    private @Nullable HotRoute routeFor(String path) {
        List<HotRoute> known = routes;
        if (known == null) {
            known = routeProvider.orderedStream().toList();
            routes = known;
        }
        for (HotRoute route : known) {
            if (path.startsWith(route.pathPrefix())) {
                return route;
            }
        }
        return null;
    }

    private static boolean hasBody(Request request) {
        return request.getLength() > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
    }

    private static void write(HotAnswer answer, String requestId, Response response, Callback callback) {
        response.setStatus(answer.status());
        HttpFields.Mutable headers = response.getHeaders();
        headers.put(RequestIds.HEADER, requestId);
        answer.headers().forEach(headers::put);
        if (answer.json().length == 0) {
            response.write(true, BufferUtil.EMPTY_BUFFER, callback);
            return;
        }
        headers.put(HttpHeader.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE);
        headers.put(new HttpField(HttpHeader.CONTENT_LENGTH, Integer.toString(answer.json().length)));
        response.write(true, ByteBuffer.wrap(answer.json()), callback);
    }

    private record TimerKey(String pathPattern, int status) {}

    /** The timer Spring's {@code http.server.requests} observation records a GET of this route and status in. */
    private Timer timer(HotAnswer answer) {
        return timers.computeIfAbsent(
                new TimerKey(answer.pathPattern(), answer.status()),
                key -> Timer.builder("http.server.requests")
                        .tag("error", "none")
                        .tag("exception", "none")
                        .tag("method", "GET")
                        .tag("outcome", answer.status() < 300 ? "SUCCESS" : "REDIRECTION")
                        .tag("status", Integer.toString(answer.status()))
                        .tag("uri", answer.pathPattern())
                        .register(registryProvider.getObject()));
    }
}
