package com.chatreview.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;
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

    /** Every operation may answer with a problem body; say so once, for all of them. */
    @Bean
    OpenApiCustomizer problemResponses() {
        return openApi -> {
            Schema<?> problem = new ObjectSchema()
                    .description("RFC 9457 problem details (application/problem+json)")
                    .addProperty("type", new StringSchema())
                    .addProperty("title", new StringSchema())
                    .addProperty("status", new IntegerSchema())
                    .addProperty("detail", new StringSchema())
                    .addProperty("instance", new StringSchema())
                    .addProperty("code", new StringSchema().example("VALIDATION_ERROR"))
                    .addProperty("fix", new StringSchema())
                    .addProperty(
                            "errors",
                            new ArraySchema()
                                    .items(new ObjectSchema()
                                            .addProperty("field", new StringSchema())
                                            .addProperty("message", new StringSchema())))
                    .addProperty("request_id", new StringSchema());
            openApi.getComponents().addSchemas("Problem", problem);
            ApiResponse error = new ApiResponse()
                    .description("An error: 400 invalid input, 401 missing or invalid key, 403 forbidden (the admin"
                            + " API disabled, the storage allowance spent), 404 not found, 409 conflict, 413 too"
                            + " large, 422 an idempotency key reused with another request, 429 rate limited"
                            + " (Retry-After), 500 server error, 503 a dependency out of reach (Retry-After)")
                    .content(new Content()
                            .addMediaType(
                                    "application/problem+json",
                                    new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem"))));
            openApi.getPaths()
                    .values()
                    .forEach(path -> path.readOperations()
                            .forEach(operation -> operation.getResponses().addApiResponse("default", error)));
        };
    }

    /**
     * A path the service answers with and without a trailing slash (the interface writes {@code POST
     * /api/v1/chats/}) is one endpoint: the document lists it once, without the slash.
     */
    @Bean
    OpenApiCustomizer onePathEach() {
        return openApi -> {
            if (openApi.getPaths() == null) {
                return;
            }
            List<String> twins = openApi.getPaths().keySet().stream()
                    .filter(path -> path.length() > 1
                            && path.endsWith("/")
                            && openApi.getPaths().containsKey(path.substring(0, path.length() - 1)))
                    .toList();
            twins.forEach(openApi.getPaths()::remove);
        };
    }

    private static SecurityScheme apiKey(String header, String description) {
        return new SecurityScheme()
                .type(SecurityScheme.Type.APIKEY)
                .in(SecurityScheme.In.HEADER)
                .name(header)
                .description(description);
    }
}
