package com.chatreview.web;

import com.chatreview.kernel.PayloadTooLarge;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caps request bodies that are not multipart (multipart has its own per-file and per-request caps). A body
 * announced larger than the cap fails as soon as it is read; a chunked body fails when it crosses the cap.
 * Either way the failure surfaces inside the handler chain, so {@link ProblemRendering} answers the 413.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class BodySizeLimit extends OncePerRequestFilter {

    private final long maxBytes;

    BodySizeLimit(WebSettings settings) {
        this.maxBytes = settings.maxJsonBody().toBytes();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String contentType = request.getContentType();
        boolean multipart =
                contentType != null && contentType.toLowerCase().startsWith(MediaType.MULTIPART_FORM_DATA_VALUE);
        chain.doFilter(multipart ? request : new Limited(request, maxBytes), response);
    }

    private static PayloadTooLarge tooLarge(long maxBytes) {
        return new PayloadTooLarge(
                "The request body is larger than " + maxBytes + " bytes",
                "Send a body of at most " + maxBytes + " bytes (1 MiB); put large content in several requests.");
    }

    private static final class Limited extends HttpServletRequestWrapper {
        private final long maxBytes;
        private @Nullable ServletInputStream stream;

        Limited(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (getContentLengthLong() > maxBytes) {
                throw tooLarge(maxBytes);
            }
            if (stream == null) {
                stream = new CountingStream(super.getInputStream(), maxBytes);
            }
            return stream;
        }
    }

    private static final class CountingStream extends ServletInputStream {
        private final ServletInputStream delegate;
        private final long maxBytes;
        private long read;

        CountingStream(ServletInputStream delegate, long maxBytes) {
            this.delegate = delegate;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            int b = delegate.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = delegate.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > maxBytes) {
                throw tooLarge(maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return delegate.isFinished();
        }

        @Override
        public boolean isReady() {
            return delegate.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            delegate.setReadListener(listener);
        }
    }
}
