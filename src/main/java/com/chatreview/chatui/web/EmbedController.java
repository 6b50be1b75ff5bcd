package com.chatreview.chatui.web;

import com.chatreview.chat.ChatId;
import com.chatreview.chatui.ChatUi;
import com.chatreview.chatui.EmbedPolicy;
import com.chatreview.chatui.EmbedToken;
import com.chatreview.chatui.PolicyChange;
import com.chatreview.tenancy.Tenant;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The tenant's side of the chat page (its API key): embed tokens, and its page settings. */
@RestController
@Tag(name = "Chat page")
@SecurityRequirement(name = "X-API-Key")
class EmbedController {

    private final ChatUi ui;

    EmbedController(ChatUi ui) {
        this.ui = ui;
    }

    @PostMapping("/api/v1/chats/{chat_id}/embed-token")
    @Operation(
            summary = "Mint an embed token for the chat page",
            description = "Body optional: {\"ttl_seconds\": 60..86400}, default 3600. The answer's chat_ui_url is"
                    + " the page link with the token.")
    ResponseEntity<TokenBody> mint(
            Tenant tenant, @PathVariable("chat_id") UUID chatId, @RequestBody(required = false) TokenRequest request) {
        Duration ttl =
                request == null || request.ttlSeconds() == null ? null : Duration.ofSeconds(request.ttlSeconds());
        EmbedToken token = ui.mintEmbedToken(tenant.id(), ChatId.of(chatId), ttl);
        String link = pageUrl() + "/?chat_id=" + chatId + "&token="
                + URLEncoder.encode(token.token(), StandardCharsets.UTF_8);
        return ResponseEntity.status(HttpStatus.CREATED).body(new TokenBody(token.token(), token.expiresAt(), link));
    }

    @GetMapping("/api/v1/chat-ui/settings")
    @Operation(summary = "The tenant's chat page settings")
    SettingsBody settings(Tenant tenant) {
        return SettingsBody.of(ui.policy(tenant.id()));
    }

    @PutMapping(path = "/api/v1/chat-ui/settings", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            summary = "Replace the tenant's chat page settings",
            description = "A list that is null or absent means anywhere; [] means only the page itself.")
    SettingsBody change(Tenant tenant, @RequestBody SettingsBody request) {
        SettingsBody body = request == null ? new SettingsBody(null, null, null) : request;
        return SettingsBody.of(ui.changePolicy(
                tenant.id(), new PolicyChange(body.requireEmbedToken(), body.frameAncestors(), body.allowedOrigins())));
    }

    private String pageUrl() {
        return ui.pageUrl();
    }

    record TokenRequest(@JsonProperty("ttl_seconds") Long ttlSeconds) {}

    record TokenBody(
            String token,
            @JsonProperty("expires_at") Instant expiresAt,
            @JsonProperty("chat_ui_url") String chatUiUrl) {}

    record SettingsBody(
            @JsonProperty("require_embed_token") @Nullable Boolean requireEmbedToken,
            @JsonProperty("frame_ancestors") @Nullable List<String> frameAncestors,
            @JsonProperty("allowed_origins") @Nullable List<String> allowedOrigins) {

        static SettingsBody of(EmbedPolicy policy) {
            return new SettingsBody(policy.requireEmbedToken(), policy.frameAncestors(), policy.allowedOrigins());
        }
    }
}
