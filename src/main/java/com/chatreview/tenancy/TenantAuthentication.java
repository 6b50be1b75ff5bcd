package com.chatreview.tenancy;

import com.chatreview.ratelimit.RateLimitDecision;
import com.chatreview.ratelimit.RateLimited;
import com.chatreview.tenancy.TenancyErrors.ApiKeyInvalid;
import com.chatreview.tenancy.TenancyErrors.ApiKeyMissing;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Every tenant request passes here: the key in its header names the tenant (chat endpoints read
 * {@code X-API-Key}, homework endpoints {@code x-tenant-api-secret}), then the tenant's REST quota is spent
 * and reported in the {@code X-RateLimit-*} headers. An address that keeps failing is not heard for a while.
 */
class TenantAuthentication implements HandlerInterceptor {

    static final String TENANT_ATTRIBUTE = Tenant.class.getName();

    private final RestAuthentication authentication;
    private final String header;

    TenantAuthentication(RestAuthentication authentication, String header) {
        this.authentication = authentication;
        this.header = header;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        Authenticator.Result.Authenticated authenticated = switch (authentication.check(request, header)) {
            case Authenticator.Result.Authenticated known -> known;
            case Authenticator.Result.Missing missing -> throw new ApiKeyMissing(header);
            case Authenticator.Result.Invalid invalid -> throw new ApiKeyInvalid(header);
            case Authenticator.Result.Throttled throttled -> throw TenancyErrors.tooManyFailedAuthentications();
        };
        request.setAttribute(TENANT_ATTRIBUTE, authenticated.tenant());
        reportQuota(RestAuthentication.quotaOf(authenticated), response);
        return true;
    }

    private static void reportQuota(RateLimitDecision decision, HttpServletResponse response) {
        if (!RestAuthentication.reportQuota(decision, response::setHeader)) {
            long retryAfter = RateLimitDecision.seconds(decision.retryAfter());
            response.setHeader("X-RateLimit-Reset", Long.toString(Math.max(1, retryAfter)));
            throw new RateLimited(
                    "The tenant has used its " + decision.limit() + " REST requests of this minute",
                    "Wait " + Math.max(1, retryAfter) + " s (Retry-After) before the next request, or ask the"
                            + " operator for a higher RATE_LIMIT_REST_PER_MINUTE.",
                    retryAfter);
        }
    }
}
