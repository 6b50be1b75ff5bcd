package com.chatreview.support;

import com.chatreview.tenancy.Tenancy;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * Hands an {@link IntegrationTest}'s methods a {@link TestService} or a fresh {@link TestTenant} (named after the
 * test class) when they ask for one as a parameter.
 */
public final class ServiceParameters implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
        Class<?> type = parameter.getParameter().getType();
        return type == TestService.class || type == TestTenant.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
        ApplicationContext context = SpringExtension.getApplicationContext(extension);
        TestService service = new TestService(
                context.getEnvironment().getRequiredProperty("local.server.port", Integer.class),
                context.getBean(Tenancy.class));
        if (parameter.getParameter().getType() == TestService.class) {
            return service;
        }
        return service.newTenant(extension.getRequiredTestClass().getSimpleName());
    }
}
