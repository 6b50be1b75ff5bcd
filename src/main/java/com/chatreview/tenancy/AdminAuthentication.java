package com.chatreview.tenancy;

import com.chatreview.ratelimit.RequestQuotas;
import com.chatreview.tenancy.TenancyErrors.AdminApiDisabled;
import com.chatreview.tenancy.TenancyErrors.AdminTokenInvalid;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.springframework.web.servlet.HandlerInterceptor;

/** The admin API opens only to {@code X-Admin-Token: <ADMIN_TOKEN>}, compared in constant time. */
class AdminAuthentication implements HandlerInterceptor {

    private final TenancySettings settings;
    private final RequestQuotas quotas;

    AdminAuthentication(TenancySettings settings, RequestQuotas quotas) {
        this.settings = settings;
        this.quotas = quotas;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!settings.adminApiEnabled()) {
            throw new AdminApiDisabled();
        }
        String address = request.getRemoteAddr();
        if (quotas.authenticationBlocked(address).isPresent()) {
            throw TenancyErrors.tooManyFailedAuthentications();
        }
        String token = request.getHeader("X-Admin-Token");
        if (token == null || !MessageDigest.isEqual(bytes(token), bytes(settings.adminToken()))) {
            quotas.authenticationFailed(address);
            throw new AdminTokenInvalid();
        }
        return true;
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
