package com.chatreview.chat.web;

import com.chatreview.chat.ChatId;
import com.chatreview.kernel.Ids;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.RestAuthentication;
import com.chatreview.tenancy.Tenant;
import com.chatreview.web.HotAnswer;
import com.chatreview.web.HotRequest;
import com.chatreview.web.HotRoute;
import com.chatreview.web.QueryStrings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Get-chat and a page of messages served ahead of the servlet container ({@link HotRoute}), whose layers and Spring
 * MVC's handler lookup, interceptors, argument resolution and content negotiation cost more CPU than these reads
 * themselves (docs/benchmarks.md, "The hot reads against the reference"). It answers only what it can finish to the
 * letter as {@link ChatController} would: a plain request (a canonical chat id, no query or only {@code offset},
 * {@code limit} and {@code order} once each and valid, JSON acceptable, no {@code If-None-Match} or one plain tag),
 * an admitted tenant, its chat found: 200 or 304 with the same body, {@code ETag} and {@code X-RateLimit-*}.
 * Everything else goes on to Spring MVC unanswered, which then reuses the key check and quota already spent here
 * ({@link RestAuthentication}): nothing is counted twice.
 */
@Component
class HotChatReads implements HotRoute {

    private static final String PREFIX = "/api/v1/chats/";
    private static final String MESSAGES = "/messages";
    private static final int ID_LENGTH = 36;
    private static final byte[] NO_BODY = new byte[0];

    /** A tag as {@link com.chatreview.web.EntityTags} makes them: the only {@code If-None-Match} answered here. */
    private static final Pattern PLAIN_TAG = Pattern.compile("\"[0-9a-f]{16}\"");

    private final RestAuthentication authentication;
    private final ChatReads reads;
    private final JsonMapper json;

    HotChatReads(RestAuthentication authentication, ChatReads reads, JsonMapper json) {
        this.authentication = authentication;
        this.reads = reads;
        this.json = json;
    }

    @Override
    public String pathPrefix() {
        return PREFIX;
    }

    @Override
    public @Nullable HotAnswer answer(HotRequest request) {
        String path = request.path();
        UUID chatId = canonicalId(path, PREFIX.length());
        if (chatId == null || !acceptsJson(request.header(HttpHeaders.ACCEPT))) {
            return null;
        }
        boolean messages = path.length() == PREFIX.length() + ID_LENGTH + MESSAGES.length() && path.endsWith(MESSAGES);
        if (!messages && path.length() != PREFIX.length() + ID_LENGTH) {
            return null;
        }
        @Nullable PageRequest page = null;
        if (messages) {
            page = page(request.query());
            if (page == null) {
                return null;
            }
        } else if (request.query() != null) {
            return null;
        }
        @Nullable String ifNoneMatch = request.header(HttpHeaders.IF_NONE_MATCH);
        if (ifNoneMatch != null && !PLAIN_TAG.matcher(ifNoneMatch).matches()) {
            return null; // a list, a weak tag or "*": Spring's comparison answers it
        }
        Map<String, String> headers = new LinkedHashMap<>();
        Optional<Tenant> tenant = authentication.admittedChatRequest(request, headers::put);
        if (tenant.isEmpty()) {
            return null;
        }
        IfNoneMatch conditional = new IfNoneMatch(ifNoneMatch);
        Object body = page != null
                ? reads.messages(tenant.get().id(), ChatId.of(chatId), page, conditional)
                : reads.chat(tenant.get().id(), ChatId.of(chatId), conditional);
        headers.put(HttpHeaders.ETAG, conditional.tag);
        String pattern = messages ? "/api/v1/chats/{chat_id}/messages" : "/api/v1/chats/{chat_id}";
        return body == null
                ? new HotAnswer(304, pattern, headers, NO_BODY)
                // one write of a known length: a body written in pieces went out chunked, in several socket writes
                : new HotAnswer(200, pattern, headers, json.writeValueAsBytes(body));
    }

    /** The request's one plain tag against the read's current one, which it keeps for the {@code ETag} header. */
    private static final class IfNoneMatch implements ChatReads.Conditional {
        private final @Nullable String given;
        private String tag = "";

        IfNoneMatch(@Nullable String given) {
            this.given = given;
        }

        @Override
        public boolean asked() {
            return given != null;
        }

        @Override
        public boolean notModified(String current) {
            tag = current;
            return current.equals(given);
        }
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

    private static boolean acceptsJson(@Nullable String accept) {
        return accept == null || accept.equals("*/*") || accept.equals(MediaType.APPLICATION_JSON_VALUE);
    }
}
