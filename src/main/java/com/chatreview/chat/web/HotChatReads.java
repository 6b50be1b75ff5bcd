package com.chatreview.chat.web;

import com.chatreview.chat.ChatId;
import com.chatreview.kernel.Ids;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.RestAuthentication;
import com.chatreview.tenancy.Tenant;
import com.chatreview.web.QueryStrings;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Get-chat and a page of messages served ahead of Spring MVC, whose handler lookup, interceptors, argument
 * resolution and content negotiation cost more CPU than these reads themselves (docs/benchmarks.md, "The hot reads
 * against the reference"). It answers only what it can finish to the letter as {@link ChatController} would: a
 * plain request (a canonical chat id, no query or only {@code offset}, {@code limit} and {@code order} once each and
 * valid, JSON acceptable), an admitted tenant, its chat found: 200 or 304 with the same body, {@code ETag},
 * {@code X-Request-Id} and {@code X-RateLimit-*}. Everything else goes on to Spring MVC unanswered, which then
 * reuses the key check and quota already spent here ({@link RestAuthentication}): nothing is counted twice.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 30)
class HotChatReads extends OncePerRequestFilter {

    private static final String PREFIX = "/api/v1/chats/";
    private static final String MESSAGES = "/messages";
    private static final int ID_LENGTH = 36;

    private final RestAuthentication authentication;
    private final ChatReads reads;
    private final JsonMapper json;

    /**
     * The services are {@link Lazy}: a filter is made with the web server, before the properties registered late
     * (a test's database, say) are bound, and whatever it held would be made with the early ones.
     */
    HotChatReads(@Lazy RestAuthentication authentication, @Lazy ChatReads reads, JsonMapper json) {
        this.authentication = authentication;
        this.reads = reads;
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"GET".equals(request.getMethod()) || !request.getRequestURI().startsWith(PREFIX);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!served(request, response)) {
            chain.doFilter(request, response);
        }
    }

    private boolean served(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getRequestURI();
        UUID chatId = canonicalId(path, PREFIX.length());
        if (chatId == null || !acceptsJson(request.getHeader(HttpHeaders.ACCEPT))) {
            return false;
        }
        boolean messages = path.length() == PREFIX.length() + ID_LENGTH + MESSAGES.length() && path.endsWith(MESSAGES);
        if (!messages && path.length() != PREFIX.length() + ID_LENGTH) {
            return false;
        }
        @Nullable PageRequest page = null;
        if (messages) {
            page = page(request.getQueryString());
            if (page == null) {
                return false;
            }
        } else if (request.getQueryString() != null) {
            return false;
        }
        Object body;
        try {
            Optional<Tenant> tenant = authentication.admittedChatRequest(request, response);
            if (tenant.isEmpty()) {
                return false;
            }
            ServletWebRequest web = new ServletWebRequest(request, response);
            body = messages
                    ? reads.messages(
                            tenant.get().id(),
                            ChatId.of(chatId),
                            Objects.requireNonNull(page, "a messages path has its page"),
                            web)
                    : reads.chat(tenant.get().id(), ChatId.of(chatId), web);
        } catch (RuntimeException e) {
            // not found, or the database unreachable: Spring MVC answers it as a problem (nothing is written yet)
            response.setHeader(HttpHeaders.ETAG, null);
            response.setStatus(HttpServletResponse.SC_OK);
            return false;
        }
        ServerHttpObservationFilter.findObservationContext(request)
                .ifPresent(observation -> observation.setPathPattern(
                        messages ? "/api/v1/chats/{chat_id}/messages" : "/api/v1/chats/{chat_id}"));
        if (body != null) {
            // one write of a known length: Jackson's buffer flushed into the response in pieces (writeValue to
            // its stream) went out chunked, in several writes to the socket, and cost more
            byte[] bytes = json.writeValueAsBytes(body);
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setContentLength(bytes.length);
            response.getOutputStream().write(bytes);
        }
        return true;
    }

    /** The page the query names, or null when the query is not one this path answers (Spring MVC does). */
    private static @Nullable PageRequest page(@Nullable String query) {
        @Nullable String offset = null;
        @Nullable String limit = null;
        @Nullable String order = null;
        for (QueryStrings.Parameter parameter : QueryStrings.parse(query)) {
            if (!parameter.decodable()) {
                return null;
            }
            String value = parameter.value().orElseThrow();
            switch (parameter.name().orElseThrow()) {
                case "offset" -> {
                    if (offset != null) return null;
                    offset = value;
                }
                case "limit" -> {
                    if (limit != null) return null;
                    limit = value;
                }
                case "order" -> {
                    if (order != null) return null;
                    order = value;
                }
                default -> {
                    return null;
                }
            }
        }
        try {
            return ChatReads.page(offset, limit, order);
        } catch (RuntimeException invalid) {
            return null;
        }
    }

    /** The id at {@code start} when it is a UUID in its canonical lower-case form; null otherwise. */
    private static @Nullable UUID canonicalId(String path, int start) {
        if (path.length() < start + ID_LENGTH) {
            return null;
        }
        String text = path.substring(start, start + ID_LENGTH);
        return Ids.uuid(text).filter(id -> id.toString().equals(text)).orElse(null);
    }

    private static boolean acceptsJson(String accept) {
        return accept == null || accept.equals("*/*") || accept.equals(MediaType.APPLICATION_JSON_VALUE);
    }
}
