package com.chatreview.lti.web;

import com.chatreview.lti.launch.LtiRequestLimits;
import com.chatreview.lti.launch.LtiSessions;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** The tool's endpoints are admitted before their handlers read anything ({@link LtiRequestLimiter}). */
@Configuration(proxyBeanMethods = false)
class LtiWebConfiguration implements WebMvcConfigurer {

    private final LtiRequestLimits admission;
    private final LtiSessions sessions;

    LtiWebConfiguration(LtiRequestLimits admission, LtiSessions sessions) {
        this.admission = admission;
        this.sessions = sessions;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new LtiRequestLimiter(admission, sessions)).addPathPatterns("/lti/**");
    }
}
