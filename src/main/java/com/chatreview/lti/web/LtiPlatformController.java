package com.chatreview.lti.web;

import com.chatreview.kernel.InvalidInput;
import com.chatreview.lti.LtiPlatform;
import com.chatreview.lti.LtiSettings;
import com.chatreview.lti.grades.LtiScores;
import com.chatreview.lti.platforms.LtiPlatforms;
import com.chatreview.lti.platforms.LtiRegistrations;
import com.chatreview.lti.platforms.NewPlatform;
import com.chatreview.tenancy.Tenant;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/v1/lti/platforms} (docs/lti.md, Registering a platform): a tenant's LMS platforms, with its API key. */
@RestController
@RequestMapping("/api/v1/lti/platforms")
@Tag(name = "LTI")
@SecurityRequirement(name = "X-API-Key")
class LtiPlatformController {

    private final LtiPlatforms platforms;
    private final LtiRegistrations registrations;
    private final LtiSettings settings;
    private final LtiScores scores;

    LtiPlatformController(
            LtiPlatforms platforms, LtiRegistrations registrations, LtiSettings settings, LtiScores scores) {
        this.platforms = platforms;
        this.registrations = registrations;
        this.settings = settings;
        this.scores = scores;
    }

    record RegistrationLinkBody(
            String url, @JsonProperty("expires_at") Instant expiresAt) {}

    @PostMapping("/registration-links")
    @Operation(
            summary = "A link that registers an LMS platform in one step (Dynamic Registration)",
            description = "Single-use, for a day: the LMS's administrator gives it to the LMS as the tool's"
                    + " registration URL, and the platform the LMS registers is this tenant's.")
    ResponseEntity<RegistrationLinkBody> registrationLink(Tenant tenant) {
        LtiRegistrations.Link link =
                registrations.link(tenant.id(), new LtiRegistrations.ToolUrls(ToolBase.orRelative(settings)));
        return ResponseEntity.status(HttpStatus.CREATED).body(new RegistrationLinkBody(link.url(), link.expiresAt()));
    }

    record PlatformRequest(
            @Nullable String issuer,
            @JsonProperty("client_id") @Nullable String clientId,
            @JsonProperty("deployment_ids") @Nullable List<String> deploymentIds,
            @JsonProperty("auth_login_url") @Nullable String authLoginUrl,
            @JsonProperty("auth_token_url") @Nullable String authTokenUrl,
            @JsonProperty("jwks_url") @Nullable String jwksUrl) {}

    record PlatformBody(
            String id,
            String issuer,
            @JsonProperty("client_id") String clientId,
            @JsonProperty("deployment_ids") List<String> deploymentIds,
            @JsonProperty("auth_login_url") String authLoginUrl,
            @JsonProperty("auth_token_url") String authTokenUrl,
            @JsonProperty("jwks_url") String jwksUrl,
            @JsonProperty("tool_jwks_url") String toolJwksUrl,
            @JsonProperty("created_at") Instant createdAt) {

        /** {@code tool_jwks_url}: the URL of the tool's keys for this registration, to be entered in the LMS. */
        static PlatformBody of(LtiPlatform platform, String base) {
            return new PlatformBody(
                    platform.id().toString(),
                    platform.issuer(),
                    platform.clientId(),
                    platform.deploymentIds(),
                    platform.authLoginUrl(),
                    platform.authTokenUrl(),
                    platform.jwksUrl(),
                    new LtiRegistrations.ToolUrls(base).jwks(platform.id()),
                    platform.createdAt());
        }
    }

    record PlatformList(List<PlatformBody> platforms) {}

    @PostMapping(
            path = {"", "/"},
            consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            summary = "Register an LMS platform",
            description = "Its issuer, the client_id it gave the tool, its deployment ids and its URLs, as the LMS's"
                    + " LTI 1.3 settings show them. The URLs must be https and public. The answer's tool_jwks_url"
                    + " is the tool's public keys for this registration alone: enter it in the LMS as the tool's"
                    + " JWKS URL. A client_id and auth_token_url another tenant registered are refused (409).")
    ResponseEntity<PlatformBody> register(Tenant tenant, @RequestBody @Nullable PlatformRequest request) {
        if (request == null) {
            throw InvalidInput.field(
                    "issuer",
                    "is required",
                    "Send {\"issuer\", \"client_id\", \"deployment_ids\": [...], \"auth_login_url\","
                            + " \"auth_token_url\", \"jwks_url\"}.");
        }
        LtiPlatform registered = platforms.register(
                tenant.id(),
                new NewPlatform(
                        request.issuer(),
                        request.clientId(),
                        request.deploymentIds(),
                        request.authLoginUrl(),
                        request.authTokenUrl(),
                        request.jwksUrl()));
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(PlatformBody.of(registered, ToolBase.orRelative(settings)));
    }

    @GetMapping({"", "/"})
    @Operation(summary = "The tenant's platforms")
    PlatformList list(Tenant tenant) {
        return new PlatformList(platforms.of(tenant.id()).stream()
                .map(platform -> PlatformBody.of(platform, ToolBase.orRelative(settings)))
                .toList());
    }

    @GetMapping("/{platform_id}")
    @Operation(summary = "One platform")
    PlatformBody get(Tenant tenant, @PathVariable("platform_id") UUID id) {
        return PlatformBody.of(platforms.get(tenant.id(), id), ToolBase.orRelative(settings));
    }

    @DeleteMapping("/{platform_id}")
    @Operation(summary = "Delete a platform (204): its launches stop")
    ResponseEntity<Void> delete(Tenant tenant, @PathVariable("platform_id") UUID id) {
        platforms.delete(tenant.id(), id);
        return ResponseEntity.noContent().build();
    }

    record ScoreBody(
            @JsonProperty("submission_id") String submissionId,
            String state,
            @JsonProperty("line_item_url") String lineItemUrl,
            @JsonProperty("user_id") String userId,
            int attempts,
            @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("next_attempt_at") @Nullable Instant nextAttemptAt,
            @JsonProperty("given_up_at") @Nullable Instant givenUpAt,
            @JsonProperty("last_error") @Nullable String lastError) {

        static ScoreBody of(LtiScores.Score score) {
            return new ScoreBody(
                    score.submissionId().toString(),
                    score.state(),
                    score.lineItemUrl(),
                    score.userId(),
                    score.attempts(),
                    score.createdAt(),
                    score.nextAttemptAt(),
                    score.givenUpAt(),
                    score.lastError());
        }
    }

    record UndeliveredBody(
            @JsonProperty("to_send") long toSend,
            @JsonProperty("given_up") long givenUp,
            List<ScoreBody> scores) {}

    record ResentBody(int resent, int superseded) {}

    @GetMapping("/{platform_id}/scores")
    @Operation(
            summary = "The platform's scores not in its gradebook yet",
            description = "How many are to send and how many were given up, and the oldest 100 of them with the"
                    + " platform's last answer.")
    UndeliveredBody undelivered(Tenant tenant, @PathVariable("platform_id") UUID id) {
        LtiScores.Undelivered undelivered = scores.undelivered(tenant.id(), id);
        return new UndeliveredBody(
                undelivered.toSend(),
                undelivered.givenUp(),
                undelivered.scores().stream().map(ScoreBody::of).toList());
    }

    @PostMapping("/{platform_id}/scores/resend")
    @Operation(
            summary = "Send the given-up scores again",
            description = "Each given-up score that is the last of its column and learner is sent again, with the"
                    + " full time of trying; the others stay given up (superseded), as a later score of theirs holds.")
    ResentBody resend(Tenant tenant, @PathVariable("platform_id") UUID id) {
        LtiScores.Resent resent = scores.resendGivenUp(tenant.id(), id);
        return new ResentBody(resent.resent(), resent.superseded());
    }
}
