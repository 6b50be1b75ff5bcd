package com.chatreview.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request an id: the client's {@code X-Request-Id} when it is a sane token, a new one otherwise.
 * It is echoed on every response, put in every problem body and in the log lines of the request.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestIds extends OncePerRequestFilter {

    public static final String HEADER = "X-Request-Id";
    static final String ATTRIBUTE = RequestIds.class.getName();
    static final String MDC_KEY = "request_id";
    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    /** The id of the request being served, or {@code null} outside a request. */
    public static String of(HttpServletRequest request) {
        return (String) request.getAttribute(ATTRIBUTE);
    }

    /**
     * A random (version 4) UUID from {@link ThreadLocalRandom}: a request id needs to be unique, not
     * unguessable, and the JVM-wide {@code SecureRandom} behind {@link UUID#randomUUID()} is a shared lock.
     */
    static String newId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }

    /** The client's id when it is a sane token, a new one otherwise. */
    static String idFor(@Nullable String given) {
        return given != null && SANE.matcher(given).matches() ? given : newId();
    }

    /** The id {@link HotReads} gave a request it then left to the servlet stack is kept: one request, one id. */
    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String id = request.getAttribute(ATTRIBUTE) instanceof String given ? given : idFor(request.getHeader(HEADER));
        request.setAttribute(ATTRIBUTE, id);
        response.setHeader(HEADER, id);
        MDC.put(MDC_KEY, id);
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove(MDC_KEY);
        }
    }
}
