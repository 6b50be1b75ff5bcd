package com.chatreview.lti.platforms;

import com.chatreview.database.Sql;
import com.chatreview.kernel.ServiceError;
import com.chatreview.kernel.Sha256;
import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.LtiPlatform;
import com.chatreview.lti.keys.PlatformHttp;
import com.chatreview.lti.keys.PlatformTokens;
import com.chatreview.outbound.DestinationRefused;
import com.chatreview.outbound.Destinations;
import com.chatreview.tenancy.TenantId;
import java.io.IOException;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * LTI Dynamic Registration (docs/lti.md, Dynamic Registration): a tenant makes a single-use registration link; the
 * LMS's administrator gives it to the LMS, which opens it with its {@code openid_configuration} and a
 * {@code registration_token}; the tool reads the platform's configuration, posts its own to the platform's
 * registration endpoint, and registers the platform the answer names (its {@code client_id} and deployment) for the
 * link's tenant, as {@link LtiPlatforms#register} does with every check. The platform is asked with no transaction
 * open (the link claimed for a minute meanwhile); the link is used in the transaction that registers the platform: a
 * registration that failed leaves it usable, one that succeeded ends it.
 */
public class LtiRegistrations {

    static final Duration LINK_LIFETIME = Duration.ofDays(1);
    /** Longer than reading the platform's configuration and posting the registration take (10 s each at most). */
    private static final Duration CLAIM = Duration.ofMinutes(1);

    private static final String TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration";

    /** A registration link: its URL carries the token, shown once. */
    public record Link(String url, Instant expiresAt) {}

    /** The tool's own URLs, as platforms reach them. */
    public record ToolUrls(String base) {
        String login() {
            return base + "/lti/login";
        }

        String launch() {
            return base + "/lti/launch";
        }

        /** The JWKS URL of one registration: its LMS trusts the keys published there, and no other. */
        public String jwks(UUID platform) {
            return base + "/lti/platforms/" + platform + "/jwks";
        }
    }

    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;
    private final LtiPlatforms platforms;
    private final PlatformHttp http;
    private final Destinations destinations;
    private final JsonMapper json;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    LtiRegistrations(
            JdbcClient jdbc,
            TransactionTemplate transaction,
            LtiPlatforms platforms,
            PlatformHttp http,
            Destinations destinations,
            JsonMapper json,
            Clock clock) {
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.platforms = platforms;
        this.http = http;
        this.destinations = destinations;
        this.json = json;
        this.clock = clock;
    }

    /** A new registration link of the tenant's, for a day, once. */
    public Link link(TenantId tenant, ToolUrls tool) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Instant now = Sql.now(clock);
        jdbc.sql("DELETE FROM lti_registration_links WHERE expires_at < :now")
                .param("now", Sql.at(now))
                .update();
        jdbc.sql("""
                        INSERT INTO lti_registration_links (token_hash, tenant_id, created_at, expires_at)
                        VALUES (:hash, :tenant, :now, :expires)""")
                .param("hash", Sha256.of(token))
                .param("tenant", tenant.value())
                .param("now", Sql.at(now))
                .param("expires", Sql.at(now.plus(LINK_LIFETIME)))
                .update();
        return new Link(tool.base() + "/lti/register?link=" + token, now.plus(LINK_LIFETIME));
    }

    /**
     * Registers the platform that opened the link.
     *
     * @throws LaunchRefused when the link expired or was used, the configuration or the platform's answer is not
     *     one a platform sends, or the platform could not be reached (then the link still works)
     */
    public LtiPlatform register(
            @Nullable String link,
            @Nullable String openidConfiguration,
            @Nullable String registrationToken,
            ToolUrls tool) {
        if (link == null || link.isEmpty() || link.length() > 64) {
            throw LaunchRefused.because("This registration link is not one of the service's. Ask for a new one.");
        }
        if (openidConfiguration == null || openidConfiguration.isBlank()) {
            throw LaunchRefused.because("The LMS sent no openid_configuration: open this link from the LMS's"
                    + " tool registration (LTI Advantage, dynamic registration).");
        }
        byte[] hash = Sha256.of(link);
        UUID claim = UUID.randomUUID();
        TenantId tenant = claim(hash, claim);
        try {
            String configurationUrl = openidConfiguration.strip();
            JsonNode configuration = configuration(configurationUrl);
            String issuer = field(configuration, "issuer");
            if (!isUnder(configurationUrl, issuer)) {
                throw LaunchRefused.because("The LMS's configuration names an issuer (" + issuer
                        + ") that its openid_configuration URL does not begin with.");
            }
            String login = field(configuration, "authorization_endpoint");
            String token = field(configuration, "token_endpoint");
            String jwks = field(configuration, "jwks_uri");
            try {
                // before the LMS registers the tool on its side: a platform the tenant could not register here
                // would leave the LMS with a tool that never launches
                platforms.checkRegistrable(tenant, issuer, login, token, jwks);
            } catch (ServiceError refused) {
                throw LaunchRefused.because("The LMS's registration was refused: " + refused.getMessage());
            }
            UUID platform = UUID.randomUUID();
            JsonNode answer =
                    registerTool(field(configuration, "registration_endpoint"), registrationToken, tool, platform);
            JsonNode toolConfiguration = answer.get(TOOL_CONFIGURATION);
            String deployment = toolConfiguration == null ? null : text(toolConfiguration.get("deployment_id"));
            String clientId = text(answer.get("client_id"));
            if (clientId == null || deployment == null) {
                throw LaunchRefused.because("The LMS registered the tool without a client_id and deployment_id.");
            }
            return Objects.requireNonNull(transaction.execute(status -> {
                int used = jdbc.sql("DELETE FROM lti_registration_links WHERE token_hash = :hash AND claim = :claim")
                        .param("hash", hash)
                        .param("claim", claim)
                        .update();
                if (used == 0) {
                    throw LaunchRefused.because("This registration link has expired or was used. Ask for a new one.");
                }
                try {
                    return platforms.register(
                            tenant,
                            new NewPlatform(issuer, clientId, List.of(deployment), login, token, jwks),
                            platform);
                } catch (ServiceError refused) {
                    throw LaunchRefused.because("The LMS's registration was refused: " + refused.getMessage());
                }
            }));
        } catch (RuntimeException failed) {
            release(hash, claim);
            throw failed;
        }
    }

    /**
     * Takes the link for this registration, for a minute: the platform is asked outside any transaction, and a
     * second opening of the link meanwhile is told to wait rather than register the tool twice.
     */
    private TenantId claim(byte[] hash, UUID claim) {
        Optional<TenantId> tenant = jdbc.sql("""
                        UPDATE lti_registration_links
                        SET claim = :claim, claimed_until = now() + :claimMillis * interval '1 millisecond'
                        WHERE token_hash = :hash AND expires_at > now()
                          AND (claimed_until IS NULL OR claimed_until <= now())
                        RETURNING tenant_id""")
                .param("claim", claim)
                .param("claimMillis", CLAIM.toMillis())
                .param("hash", hash)
                .query((rs, row) -> TenantId.of(rs.getObject("tenant_id", UUID.class)))
                .optional();
        if (tenant.isPresent()) {
            return tenant.get();
        }
        boolean inUse = jdbc.sql("""
                        SELECT count(*) > 0 FROM lti_registration_links
                        WHERE token_hash = :hash AND expires_at > now() AND claimed_until > now()""").param("hash", hash).query(Boolean.class).single();
        throw inUse
                ? LaunchRefused.unavailable("This registration link is being used by another registration right now."
                        + " Open it again in a minute if that one fails.")
                : LaunchRefused.because("This registration link has expired or was used. Ask for a new one.");
    }

    /** The registration failed: the link works again at once. */
    private void release(byte[] hash, UUID claim) {
        jdbc.sql("""
                        UPDATE lti_registration_links SET claim = NULL, claimed_until = NULL
                        WHERE token_hash = :hash AND claim = :claim""").param("hash", hash).param("claim", claim).update();
    }

    /** The configuration's URL is the issuer's, or under it (a path boundary, not any string it begins). */
    public static boolean isUnder(String url, String issuer) {
        String prefix = issuer.endsWith("/") ? issuer : issuer + "/";
        return url.equals(issuer) || url.startsWith(prefix);
    }

    private JsonNode configuration(String url) {
        URI uri;
        try {
            uri = destinations.checked("openid_configuration", url);
        } catch (DestinationRefused refused) {
            throw LaunchRefused.because(
                    "The LMS's openid_configuration is not a URL the service reaches: " + refused.getMessage());
        }
        PlatformHttp.Answer answer;
        try {
            answer = http.get(uri, Map.of("Accept", "application/json"));
        } catch (IOException unreachable) {
            throw LaunchRefused.unavailable("The LMS's configuration could not be read now (" + unreachable.getMessage()
                    + "). Open the registration again in a moment.");
        }
        if (answer.status() != 200) {
            throw LaunchRefused.because("The LMS's configuration answered " + answer.status() + ".");
        }
        try {
            return json.readTree(answer.body());
        } catch (RuntimeException e) {
            throw LaunchRefused.because("The LMS's configuration is not JSON.");
        }
    }

    private JsonNode registerTool(String endpoint, @Nullable String registrationToken, ToolUrls tool, UUID platform) {
        URI uri;
        try {
            uri = destinations.checked("registration_endpoint", endpoint);
        } catch (DestinationRefused refused) {
            throw LaunchRefused.because(
                    "The LMS's registration endpoint is not a URL the service reaches: " + refused.getMessage());
        }
        URI launch = URI.create(tool.launch());
        Map<String, Object> toolConfiguration = new LinkedHashMap<>();
        toolConfiguration.put("domain", launch.getAuthority());
        toolConfiguration.put("target_link_uri", tool.launch());
        toolConfiguration.put("description", "AI reviews of homework, and a chat about each review");
        toolConfiguration.put("claims", List.of("iss", "sub", "name", "given_name", "family_name"));
        toolConfiguration.put(
                "messages",
                List.of(
                        Map.of(
                                "type",
                                "LtiDeepLinkingRequest",
                                "target_link_uri",
                                tool.launch(),
                                "label",
                                "Homework review"),
                        Map.of("type", "LtiResourceLinkRequest", "target_link_uri", tool.launch())));
        Map<String, Object> registration = new LinkedHashMap<>();
        registration.put("application_type", "web");
        registration.put("response_types", List.of("id_token"));
        registration.put("grant_types", List.of("implicit", "client_credentials"));
        registration.put("initiate_login_uri", tool.login());
        registration.put("redirect_uris", List.of(tool.launch()));
        registration.put("client_name", "Homework review");
        registration.put("jwks_uri", tool.jwks(platform));
        registration.put("token_endpoint_auth_method", "private_key_jwt");
        registration.put(
                "scope",
                String.join(
                        " ",
                        PlatformTokens.LINE_ITEM_SCOPE,
                        PlatformTokens.SCORE_SCOPE,
                        "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"));
        registration.put(TOOL_CONFIGURATION, toolConfiguration);
        Map<String, String> headers = registrationToken == null || registrationToken.isBlank()
                ? Map.of("Accept", "application/json")
                : Map.of("Accept", "application/json", "Authorization", "Bearer " + registrationToken.strip());
        PlatformHttp.Answer answer;
        try {
            answer = http.post(uri, "application/json", json.writeValueAsString(registration), headers);
        } catch (IOException unreachable) {
            throw LaunchRefused.unavailable("The LMS's registration endpoint could not be reached now ("
                    + unreachable.getMessage() + "). Open the registration again in a moment.");
        }
        if (answer.status() / 100 != 2) {
            // what the LMS said is not repeated: a page of the service shows only its own words
            throw LaunchRefused.because("The LMS refused the tool's registration (it answered " + answer.status()
                    + "). Its administrator finds why in the LMS's log.");
        }
        try {
            return json.readTree(answer.body());
        } catch (RuntimeException e) {
            throw LaunchRefused.because("The LMS's answer to the registration is not JSON.");
        }
    }

    private static String field(JsonNode configuration, String name) {
        String value = text(configuration.get(name));
        if (value == null || value.isBlank()) {
            throw LaunchRefused.because("The LMS's configuration has no " + name + ".");
        }
        return value;
    }

    private static @Nullable String text(@Nullable JsonNode node) {
        return node == null || !node.isString() ? null : node.asString();
    }
}
