package com.chatreview.tenancy;

import com.chatreview.ratelimit.RequestQuotas;
import com.chatreview.tenancy.TenancyErrors.ApiKeyMissing;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Which paths need which credential: {@code /api/**} the {@code X-API-Key} header, {@code /v1/**} the
 * {@code x-tenant-api-secret} header (both take the same key value), {@code /admin/**} the admin token.
 */
@Configuration(proxyBeanMethods = false)
class TenancyWebConfiguration implements WebMvcConfigurer {

    static {
        // the tenant is resolved from the key, never sent as a parameter
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(Tenant.class);
    }

    private final RestAuthentication authentication;
    private final RequestQuotas quotas;
    private final TenancySettings settings;

    TenancyWebConfiguration(RestAuthentication authentication, RequestQuotas quotas, TenancySettings settings) {
        this.authentication = authentication;
        this.quotas = quotas;
        this.settings = settings;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new TenantAuthentication(authentication, RestAuthentication.CHAT_KEY_HEADER))
                .addPathPatterns("/api/**");
        registry.addInterceptor(new TenantAuthentication(authentication, RestAuthentication.HOMEWORK_KEY_HEADER))
                .addPathPatterns("/v1/**");
        registry.addInterceptor(new AdminAuthentication(settings, quotas)).addPathPatterns("/admin/**");
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new HandlerMethodArgumentResolver() {
            @Override
            public boolean supportsParameter(MethodParameter parameter) {
                return parameter.getParameterType() == Tenant.class;
            }

            @Override
            public Object resolveArgument(
                    MethodParameter parameter,
                    ModelAndViewContainer container,
                    NativeWebRequest request,
                    WebDataBinderFactory binders) {
                HttpServletRequest servletRequest = request.getNativeRequest(HttpServletRequest.class);
                Object tenant = servletRequest == null
                        ? null
                        : servletRequest.getAttribute(TenantAuthentication.TENANT_ATTRIBUTE);
                if (tenant == null) {
                    throw new ApiKeyMissing(RestAuthentication.CHAT_KEY_HEADER);
                }
                return tenant;
            }
        });
    }
}
