package com.chatreview.webhook.web;

import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.Tenant;
import com.chatreview.webhook.EndpointChanges;
import com.chatreview.webhook.EventType;
import com.chatreview.webhook.WebhookDelivery;
import com.chatreview.webhook.WebhookEndpoint;
import com.chatreview.webhook.WebhookManagement;
import com.chatreview.webhook.WebhookWithSecret;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/v1/webhooks} (docs/api.md, Webhooks): a tenant's endpoints, with its API key. */
@RestController
@RequestMapping("/api/v1/webhooks")
@Tag(name = "Webhooks")
@SecurityRequirement(name = "X-API-Key")
class WebhookController {

    private static final int MAX_URL = 2048;
    private static final int MAX_DESCRIPTION = 500;
    private static final String TYPES = Arrays.stream(EventType.values())
            .map(EventType::wireName)
            .reduce((a, b) -> a + ", " + b)
            .orElseThrow();

    private final WebhookManagement webhooks;

    WebhookController(WebhookManagement webhooks) {
        this.webhooks = webhooks;
    }

    record CreateWebhookRequest(
            String url, @JsonProperty("event_types") List<String> eventTypes, String description) {}

    record UpdateWebhookRequest(
            String url, @JsonProperty("event_types") List<String> eventTypes, String description, Boolean enabled) {}

    /** An endpoint; {@code secret} only in the answers that show it (creation, rotation). */
    record WebhookBody(
            String id,
            String url,
            @JsonProperty("event_types") List<String> eventTypes,
            @Nullable String description,
            boolean enabled,
            @JsonProperty("disabled_reason") @Nullable String disabledReason,
            @JsonProperty("created_at") Instant createdAt,

            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
            String secret) {

        static WebhookBody of(WebhookEndpoint endpoint, @Nullable String secret) {
            return new WebhookBody(
                    endpoint.id().toString(),
                    endpoint.url(),
                    endpoint.eventTypes().stream().map(EventType::wireName).toList(),
                    endpoint.description(),
                    endpoint.enabled(),
                    endpoint.disabledReason(),
                    endpoint.createdAt(),
                    secret);
        }

        static WebhookBody of(WebhookWithSecret shown) {
            return of(shown.endpoint(), shown.secret());
        }
    }

    record WebhookList(List<WebhookBody> webhooks) {}

    @PostMapping(
            path = {"", "/"},
            consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Register an endpoint", description = "The signing secret is shown in this answer only.")
    ResponseEntity<WebhookBody> create(Tenant tenant, @RequestBody CreateWebhookRequest request) {
        if (request == null) {
            throw InvalidInput.field("url", "is required", "Send {\"url\": \"https://...\", \"event_types\": [...]}.");
        }
        List<FieldProblem> problems = new ArrayList<>();
        checkUrl(request.url(), true, problems);
        List<EventType> types = eventTypes(request.eventTypes(), true, problems);
        checkDescription(request.description(), problems);
        reject(problems);
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(WebhookBody.of(webhooks.register(tenant.id(), request.url(), types, request.description())));
    }

    @GetMapping({"", "/"})
    @Operation(summary = "The tenant's endpoints, without their secrets")
    WebhookList list(Tenant tenant) {
        return new WebhookList(webhooks.endpointsOf(tenant.id()).stream()
                .map(endpoint -> WebhookBody.of(endpoint, null))
                .toList());
    }

    @GetMapping("/{webhook_id}")
    @Operation(summary = "One endpoint, without its secret")
    WebhookBody get(Tenant tenant, @PathVariable("webhook_id") UUID id) {
        return WebhookBody.of(webhooks.endpoint(tenant.id(), id), null);
    }

    @PatchMapping(path = "/{webhook_id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Change an endpoint's url, event_types, description or enabled")
    WebhookBody update(Tenant tenant, @PathVariable("webhook_id") UUID id, @RequestBody UpdateWebhookRequest request) {
        if (request == null) {
            return get(tenant, id);
        }
        List<FieldProblem> problems = new ArrayList<>();
        checkUrl(request.url(), false, problems);
        List<EventType> types = request.eventTypes() == null ? null : eventTypes(request.eventTypes(), true, problems);
        checkDescription(request.description(), problems);
        reject(problems);
        return WebhookBody.of(
                webhooks.update(
                        tenant.id(),
                        id,
                        new EndpointChanges(request.url(), types, request.description(), request.enabled())),
                null);
    }

    @DeleteMapping("/{webhook_id}")
    @Operation(summary = "Delete an endpoint (204)")
    ResponseEntity<Void> delete(Tenant tenant, @PathVariable("webhook_id") UUID id) {
        webhooks.delete(tenant.id(), id);
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/{webhook_id}/rotate-secret")
    @Operation(
            summary = "A new signing secret",
            description = "Shown in this answer only; the one it replaces goes on signing for 24 hours.")
    WebhookBody rotateSecret(Tenant tenant, @PathVariable("webhook_id") UUID id) {
        return WebhookBody.of(webhooks.rotateSecret(tenant.id(), id));
    }

    record DeliveryBody(
            String id,
            @JsonProperty("event_id") String eventId,
            @JsonProperty("event_type") String eventType,
            String status,
            int attempts,
            @JsonProperty("last_status_code") @Nullable Integer lastStatusCode,
            @JsonProperty("last_error") @Nullable String lastError,
            @JsonProperty("last_latency_ms") @Nullable Integer lastLatencyMs,
            @JsonProperty("next_attempt_at") @Nullable Instant nextAttemptAt,
            @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("delivered_at") @Nullable Instant deliveredAt) {

        static DeliveryBody of(WebhookDelivery delivery) {
            return new DeliveryBody(
                    delivery.id().toString(),
                    delivery.eventId().toString(),
                    delivery.eventType(),
                    delivery.status(),
                    delivery.attempts(),
                    delivery.lastStatusCode(),
                    delivery.lastError(),
                    delivery.lastLatencyMs(),
                    delivery.nextAttemptAt(),
                    delivery.createdAt(),
                    delivery.deliveredAt());
        }
    }

    record DeliveryList(
            List<DeliveryBody> deliveries,
            long total,
            int offset,
            int limit,
            @JsonProperty("has_more") boolean hasMore) {}

    @GetMapping("/{webhook_id}/deliveries")
    @Operation(summary = "The endpoint's deliveries, newest first: status, attempts, last answer, next attempt")
    DeliveryList deliveries(
            Tenant tenant,
            @PathVariable("webhook_id") UUID id,
            @RequestParam(required = false) String offset,
            @RequestParam(required = false) String limit) {
        PageRequest page = PageRequest.parse(offset, limit, null, 50, false);
        Page<WebhookDelivery> found = webhooks.deliveries(tenant.id(), id, page);
        return new DeliveryList(
                found.items().stream().map(DeliveryBody::of).toList(),
                found.total(),
                page.offset(),
                page.limit(),
                page.hasMore(found.total(), found.items().size()));
    }

    @PostMapping("/{webhook_id}/deliveries/{delivery_id}/replay")
    @Operation(summary = "Send a delivery's event again, with the same webhook-id (202)")
    ResponseEntity<Void> replay(
            Tenant tenant, @PathVariable("webhook_id") UUID id, @PathVariable("delivery_id") UUID deliveryId) {
        webhooks.replay(tenant.id(), id, deliveryId);
        return ResponseEntity.accepted().build();
    }

    @PostMapping("/{webhook_id}/test")
    @Operation(summary = "Send the endpoint a webhook.test event (202)")
    ResponseEntity<Void> test(Tenant tenant, @PathVariable("webhook_id") UUID id) {
        webhooks.sendTest(tenant.id(), id);
        return ResponseEntity.accepted().build();
    }

    private static void checkUrl(String url, boolean required, List<FieldProblem> problems) {
        if (url == null) {
            if (required) {
                problems.add(new FieldProblem("url", "is required"));
            }
        } else if (url.length() > MAX_URL) {
            problems.add(new FieldProblem("url", "must be at most " + MAX_URL + " characters"));
        }
    }

    private static List<EventType> eventTypes(List<String> names, boolean required, List<FieldProblem> problems) {
        List<EventType> types = new ArrayList<>();
        if (names == null || names.isEmpty()) {
            if (required) {
                problems.add(new FieldProblem("event_types", "must name at least one event type"));
            }
            return types;
        }
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            EventType type = name == null ? null : EventType.of(name).orElse(null);
            if (type == null) {
                problems.add(new FieldProblem("event_types[" + i + "]", "is not an event type: " + name));
            } else if (!types.contains(type)) {
                types.add(type);
            }
        }
        return types;
    }

    private static void checkDescription(String description, List<FieldProblem> problems) {
        if (description != null && description.length() > MAX_DESCRIPTION) {
            problems.add(new FieldProblem("description", "must be at most " + MAX_DESCRIPTION + " characters"));
        }
    }

    private static void reject(List<FieldProblem> problems) {
        if (!problems.isEmpty()) {
            throw InvalidInput.fields(
                    problems,
                    "Send {\"url\": \"https://...\", \"event_types\": [...]} with event types among " + TYPES + ".");
        }
    }
}
