package com.chatreview.tenancy;

import com.chatreview.ratelimit.RequestQuotas;
import java.util.List;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Which paths need which credential: {@code /api/**} the {@code X-API-Key} header, {@code /v1/**} the
 * {@code x-tenant-api-secret} header (both take the same key value), {@code /admin/**} the admin token.
 */
@Configuration(proxyBeanMethods = false)
class TenancyWebConfiguration implements WebMvcConfigurer {

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
        resolvers.add(new TenantArgumentResolver());
    }
}
