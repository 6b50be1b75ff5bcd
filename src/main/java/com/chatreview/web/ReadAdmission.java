package com.chatreview.web;

import com.chatreview.database.DatabaseSettings;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Lets at most as many REST reads into the handlers as the database pool has connections, first come first
 * served: the others wait here, in order, instead of inside the pool, whose hand-over is not in order and left some
 * reads waiting many times longer than the rest under load (the tail). A read that has waited the pool's connection
 * timeout goes in anyway, and the pool decides. Writes are not held here: an upload may take long to arrive.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class ReadAdmission extends OncePerRequestFilter {

    private final Semaphore turns;
    private final long waitNanos;

    ReadAdmission(DatabaseSettings database) {
        this.turns = new Semaphore(database.poolSize(), true);
        this.waitNanos = database.connectionTimeout().toNanos();
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String method = request.getMethod();
        String path = request.getRequestURI();
        return !("GET".equals(method) || "HEAD".equals(method))
                || !(path.startsWith("/api/") || path.startsWith("/v1/"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        boolean admitted = enter();
        try {
            chain.doFilter(request, response);
        } finally {
            leave(admitted);
        }
    }

    /** Waits for a turn, at most the pool's connection timeout; whether the read got one (and must leave it). */
    boolean enter() {
        try {
            return turns.tryAcquire(waitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void leave(boolean admitted) {
        if (admitted) {
            turns.release();
        }
    }
}
