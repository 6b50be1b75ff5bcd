package com.chatreview.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The OpenAPI document's title and the three credentials of the interface. */
@Configuration(proxyBeanMethods = false)
class ApiDocumentation {

    @Bean
    OpenAPI chatReviewApi() {
        return new OpenAPI()
                .info(new Info()
                        .title("Chat and Homework Review Service")
                        .version("v1")
                        .description("Chats between a tenant's users and an AI agent, homework assignments and"
                                + " AI-reviewed submissions. Errors are RFC 9457 problem bodies with code, fix,"
                                + " errors and request_id."))
                .components(new Components()
                        .addSecuritySchemes("X-API-Key", apiKey("X-API-Key", "The tenant's API key (chat endpoints)"))
                        .addSecuritySchemes(
                                "x-tenant-api-secret",
                                apiKey("x-tenant-api-secret", "The tenant's API key (homework endpoints)"))
                        .addSecuritySchemes("admin-token", apiKey("X-Admin-Token", "The operator's ADMIN_TOKEN")));
    }

    private static SecurityScheme apiKey(String header, String description) {
        return new SecurityScheme()
                .type(SecurityScheme.Type.APIKEY)
                .in(SecurityScheme.In.HEADER)
                .name(header)
                .description(description);
    }
}
