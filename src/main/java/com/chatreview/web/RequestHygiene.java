package com.chatreview.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Two things every request needs before and after the handlers, whatever its bytes:
 *
 * <ul>
 *   <li>A wildcard {@code Content-Type} ({@code *}{@code /*}, {@code application/*}) without a charset is shown
 *       to Spring without the request encoding Boot's {@code CharacterEncodingFilter} forces (UTF-8). With one,
 *       Spring's {@code ServletServerHttpRequest.getHeaders()} rebuilds the content type with the charset and
 *       {@code HttpHeaders.setContentType} refuses the wildcard with an {@code IllegalArgumentException}
 *       (spring-framework#27957), a 500 wherever the headers are read: body binding, URI building, the
 *       WebSocket handshake. Without it, a body endpoint answers the usual 400 "Content-Type is not accepted".
 *   <li>After the handlers, what is left of the body is read ({@link UnreadBodies}), so that no answer, 2xx or
 *       5xx, leaves content unread on a connection Jetty would then close under the client.
 * </ul>
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class RequestHygiene extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(wildcardContentType(request) ? new WithoutForcedEncoding(request) : request, response);
        } finally {
            if (!request.isAsyncStarted() && request.getHeader(HttpHeaders.UPGRADE) == null) {
                UnreadBodies.drain(request);
            }
        }
    }

    private static boolean wildcardContentType(HttpServletRequest request) {
        String contentType = request.getHeader(HttpHeaders.CONTENT_TYPE);
        if (contentType == null) {
            return false;
        }
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            return (type.isWildcardType() || type.isWildcardSubtype()) && type.getCharset() == null;
        } catch (InvalidMediaTypeException e) {
            return false; // Spring ignores a content type it cannot parse: the body endpoint answers 400
        }
    }

    private static final class WithoutForcedEncoding extends HttpServletRequestWrapper {

        WithoutForcedEncoding(HttpServletRequest request) {
            super(request);
        }

        @Override
        public @Nullable String getCharacterEncoding() {
            return null;
        }
    }
}
