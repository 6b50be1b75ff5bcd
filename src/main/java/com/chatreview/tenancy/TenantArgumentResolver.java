package com.chatreview.tenancy;

import com.chatreview.tenancy.TenancyErrors.ApiKeyMissing;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Gives a controller's {@link Tenant} parameter the tenant {@link TenantAuthentication} proved for the request; a
 * request that reached the controller without one is answered as if it had no key.
 */
final class TenantArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Tenant.class;
    }

    @Override
    public Object resolveArgument(
            MethodParameter parameter,
            @Nullable ModelAndViewContainer container,
            NativeWebRequest request,
            @Nullable WebDataBinderFactory binders) {
        HttpServletRequest servletRequest = request.getNativeRequest(HttpServletRequest.class);
        Object tenant =
                servletRequest == null ? null : servletRequest.getAttribute(TenantAuthentication.TENANT_ATTRIBUTE);
        if (tenant == null) {
            throw new ApiKeyMissing(RestAuthentication.CHAT_KEY_HEADER);
        }
        return tenant;
    }
}
