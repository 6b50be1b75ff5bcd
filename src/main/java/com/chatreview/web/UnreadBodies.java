package com.chatreview.web;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and discards what is left of a request's body. Jetty answers a request whose body was not read to its end
 * and then, finding content still unread on a connection it meant to keep, closes that connection (after the
 * answer, without {@code Connection: close}). A client that is still sending, or that sends its next request on
 * the pooled connection, sees a reset instead of an answer. Every answer therefore reads the body first.
 */
final class UnreadBodies {

    private static final Logger log = LoggerFactory.getLogger(UnreadBodies.class);

    /** The most read from one refused body; the uploads' 50 MiB cap fits, and the rest closes the connection. */
    static final long MAX_DRAINED_BYTES = 64L * 1024 * 1024;

    private UnreadBodies() {}

    /** Whether the request announced a body at all (a length above 0, or chunks). */
    static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
    }

    /**
     * Reads the rest of the body, up to {@link #MAX_DRAINED_BYTES}, from the container's own stream (past any
     * wrapper that counts or caps it). A body that was read with {@code getReader()} cannot be drained this way
     * and is left as it is.
     */
    static void drain(HttpServletRequest request) {
        if (!hasBody(request)) {
            return;
        }
        ServletRequest raw = request;
        while (raw instanceof ServletRequestWrapper wrapper) {
            raw = wrapper.getRequest();
        }
        byte[] buffer = new byte[64 * 1024];
        long drained = 0;
        try {
            InputStream in = raw.getInputStream();
            for (int n = in.read(buffer); n >= 0 && drained < MAX_DRAINED_BYTES; n = in.read(buffer)) {
                drained += n;
            }
        } catch (IOException | RuntimeException e) {
            log.debug("Stopped reading the body of a request after {} bytes", drained, e);
        }
    }
}
