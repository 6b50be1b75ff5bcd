package com.chatreview.tenancy;

import com.chatreview.ratelimit.RateLimitDecision;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Objects;
import java.util.Optional;
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
        if (check(request, CHAT_KEY_HEADER) instanceof Authenticator.Result.Authenticated known
                && reportQuota(quotaOf(known), response)) {
            return Optional.of(known.tenant());
        }
        return Optional.empty();
    }

    /** What the check of the request's key found, checked (and its quota spent) once per request. */
    Authenticator.Result check(HttpServletRequest request, String header) {
        if (request.getAttribute(RESULT_ATTRIBUTE) instanceof Authenticator.Result checked) {
            return checked;
        }
        Authenticator.Result result = authenticator.restRequest(request.getHeader(header), request.getRemoteAddr());
        request.setAttribute(RESULT_ATTRIBUTE, result);
        return result;
    }

    /** Writes the quota's headers; whether the quota allowed the request. */
    /** A REST request's authentication spends from the tenant's quota and carries what is left. */
    static RateLimitDecision quotaOf(Authenticator.Result.Authenticated rest) {
        return Objects.requireNonNull(rest.restQuota(), "a REST request's authentication carries its quota");
    }

    static boolean reportQuota(RateLimitDecision decision, HttpServletResponse response) {
        long resetSeconds = RateLimitDecision.seconds(decision.resetAfter());
        response.setHeader("X-RateLimit-Limit", Long.toString(decision.limit()));
        response.setHeader("X-RateLimit-Remaining", Long.toString(decision.remaining()));
        response.setHeader("X-RateLimit-Reset", Long.toString(resetSeconds));
        response.setHeader("RateLimit-Policy", decision.limit() + ";w=60");
        response.setHeader(
                "RateLimit",
                "limit=" + decision.limit() + ", remaining=" + decision.remaining() + ", reset=" + resetSeconds);
        return decision.allowed();
    }
}
