package com.chatreview.tenancy;

import com.chatreview.ratelimit.RateLimitDecision;
import com.chatreview.web.HotRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The tenant of a REST request, decided once per request: its key checked and the tenant's REST quota spent the
 * first time anyone asks, whether a read served before Spring MVC (the chat module's hot reads) or the interceptor
 * of every other request. A request the hot reads leave to Spring MVC is therefore neither counted nor failed twice.
 */
@Component
public class RestAuthentication {

    /** The header of the chat endpoints' key; the homework endpoints read {@link #HOMEWORK_KEY_HEADER}. */
    public static final String CHAT_KEY_HEADER = "X-API-Key";

    static final String HOMEWORK_KEY_HEADER = "x-tenant-api-secret";

    private static final String RESULT_ATTRIBUTE = RestAuthentication.class.getName() + ".result";

    private final Authenticator authenticator;

    RestAuthentication(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    /**
     * The tenant of a chat endpoint's request when it may be served now (its key is a tenant's and its quota allowed
     * it), with the {@code X-RateLimit-*} headers written; empty otherwise, and Spring MVC's interceptor answers the
     * same decision as a problem.
     */
    public Optional<Tenant> admittedChatRequest(HttpServletRequest request, HttpServletResponse response) {
        return admitted(check(request, CHAT_KEY_HEADER), response::setHeader);
    }

    /** The same for a read served ahead of the servlet container: the quota's headers go to {@code headers}. */
    public Optional<Tenant> admittedChatRequest(HotRequest request, BiConsumer<String, String> headers) {
        Authenticator.Result result = check(
                request::attribute, request::setAttribute, request.header(CHAT_KEY_HEADER), request.remoteAddress());
        return admitted(result, headers);
    }

    private static Optional<Tenant> admitted(Authenticator.Result result, BiConsumer<String, String> headers) {
        if (result instanceof Authenticator.Result.Authenticated known && reportQuota(quotaOf(known), headers)) {
            return Optional.of(known.tenant());
        }
        return Optional.empty();
    }

    /** What the check of the request's key found, checked (and its quota spent) once per request. */
    Authenticator.Result check(HttpServletRequest request, String header) {
        return check(request::getAttribute, request::setAttribute, request.getHeader(header), request.getRemoteAddr());
    }

    private Authenticator.Result check(
            Function<String, @Nullable Object> attribute,
            BiConsumer<String, Object> remember,
            @Nullable String key,
            String clientAddress) {
        if (attribute.apply(RESULT_ATTRIBUTE) instanceof Authenticator.Result checked) {
            return checked;
        }
        Authenticator.Result result = authenticator.restRequest(key, clientAddress);
        remember.accept(RESULT_ATTRIBUTE, result);
        return result;
    }

    /** A REST request's authentication spends from the tenant's quota and carries what is left. */
    static RateLimitDecision quotaOf(Authenticator.Result.Authenticated rest) {
        return Objects.requireNonNull(rest.restQuota(), "a REST request's authentication carries its quota");
    }

    /** Writes the quota's headers; whether the quota allowed the request. */
    static boolean reportQuota(RateLimitDecision decision, BiConsumer<String, String> headers) {
        long resetSeconds = RateLimitDecision.seconds(decision.resetAfter());
        headers.accept("X-RateLimit-Limit", Long.toString(decision.limit()));
        headers.accept("X-RateLimit-Remaining", Long.toString(decision.remaining()));
        headers.accept("X-RateLimit-Reset", Long.toString(resetSeconds));
        headers.accept("RateLimit-Policy", decision.limit() + ";w=60");
        headers.accept(
                "RateLimit",
                "limit=" + decision.limit() + ", remaining=" + decision.remaining() + ", reset=" + resetSeconds);
        return decision.allowed();
    }
}
