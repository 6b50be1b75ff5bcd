package com.chatreview.lti.platforms;

import com.chatreview.database.Sql;
import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.lti.LtiErrors.ClientHeldByAnotherTenant;
import com.chatreview.lti.LtiErrors.PlatformAlreadyRegistered;
import com.chatreview.lti.LtiErrors.PlatformNotFound;
import com.chatreview.lti.LtiErrors.TooManyPlatforms;
import com.chatreview.lti.LtiPlatform;
import com.chatreview.lti.LtiSettings;
import com.chatreview.outbound.DestinationRefused;
import com.chatreview.outbound.Destinations;
import com.chatreview.tenancy.TenantId;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionTemplate;

/** The LMS platforms a tenant registers (docs/lti.md, Registering a platform). */
public class LtiPlatforms {

    static final int MAX_TEXT = 255;
    static final int MAX_URL = 2048;
    static final int MAX_DEPLOYMENTS = 100;
    private static final String FIX = "Send the platform's details as its LTI 1.3 settings show them: {\"issuer\","
            + " \"client_id\", \"deployment_ids\": [...], \"auth_login_url\", \"auth_token_url\", \"jwks_url\"}.";

    private final Platforms platforms;
    private final Destinations destinations;
    private final LtiSettings settings;
    private final TransactionTemplate transactions;
    private final Clock clock;

    LtiPlatforms(
            Platforms platforms,
            Destinations destinations,
            LtiSettings settings,
            TransactionTemplate transactions,
            Clock clock) {
        this.platforms = platforms;
        this.destinations = destinations;
        this.settings = settings;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * Registers the platform, every field checked (the URLs as any URL the service connects to on a tenant's word).
     *
     * @throws InvalidInput naming every field that is wrong
     * @throws PlatformAlreadyRegistered when one of its deployments is registered already, by any tenant
     * @throws ClientHeldByAnotherTenant when another tenant registered its client id and token endpoint
     */
    public LtiPlatform register(TenantId tenant, NewPlatform request) {
        return register(tenant, request, UUID.randomUUID());
    }

    /** Registers the platform under an id chosen before (the JWKS URL an LMS was told while registering the tool). */
    LtiPlatform register(TenantId tenant, NewPlatform request, UUID id) {
        LtiPlatform platform = checked(tenant, request, id);
        return transactions.execute(status -> {
            if (platforms.countLocked(tenant) >= settings.maxPlatformsPerTenant()) {
                throw new TooManyPlatforms(settings.maxPlatformsPerTenant());
            }
            if (platforms.clientHeldByAnother(tenant, platform.clientId(), platform.authTokenUrl())) {
                throw new ClientHeldByAnotherTenant(platform.clientId(), platform.authTokenUrl());
            }
            platforms.insert(platform).ifPresent(taken -> {
                throw new PlatformAlreadyRegistered(platform.issuer(), platform.clientId(), taken);
            });
            return platform;
        });
    }

    /**
     * Whether a platform with these issuer and URLs could be registered for the tenant now, before its client id is
     * known (Dynamic Registration asks the platform for one only if so).
     *
     * @throws InvalidInput naming every field that is wrong
     * @throws TooManyPlatforms when the tenant has as many as it may
     */
    public void checkRegistrable(TenantId tenant, String issuer, String login, String token, String jwks) {
        checked(
                tenant,
                new NewPlatform(issuer, "client-to-be-given", List.of("deployment-to-be-given"), login, token, jwks),
                UUID.randomUUID());
        if (platforms.ofTenant(tenant).size() >= settings.maxPlatformsPerTenant()) {
            throw new TooManyPlatforms(settings.maxPlatformsPerTenant());
        }
    }

    public List<LtiPlatform> of(TenantId tenant) {
        return platforms.ofTenant(tenant);
    }

    public LtiPlatform get(TenantId tenant, UUID id) {
        return platforms.find(tenant, id).orElseThrow(() -> new PlatformNotFound(id));
    }

    /** Deletes the registration: its launches stop at once (a login under way fails its launch). */
    public void delete(TenantId tenant, UUID id) {
        if (!platforms.delete(tenant, id)) {
            throw new PlatformNotFound(id);
        }
    }

    private LtiPlatform checked(TenantId tenant, NewPlatform request, UUID id) {
        List<FieldProblem> problems = new ArrayList<>();
        String issuer = identifier("issuer", request.issuer(), problems);
        if (issuer != null) {
            checkIssuer(issuer, problems);
        }
        String clientId = identifier("client_id", request.clientId(), problems);
        List<String> deployments = deployments(request.deploymentIds(), problems);
        String login = url("auth_login_url", request.authLoginUrl(), problems);
        String token = url("auth_token_url", request.authTokenUrl(), problems);
        String jwks = url("jwks_url", request.jwksUrl(), problems);
        if (!problems.isEmpty()
                || issuer == null
                || clientId == null
                || login == null
                || token == null
                || jwks == null) {
            throw InvalidInput.fields(problems, FIX);
        }
        return new LtiPlatform(id, tenant, issuer, clientId, deployments, login, token, jwks, Sql.now(clock));
    }

    private static @Nullable String identifier(String field, @Nullable String value, List<FieldProblem> problems) {
        if (value == null || value.isBlank()) {
            problems.add(new FieldProblem(field, "is required"));
            return null;
        }
        if (value.length() > MAX_TEXT) {
            problems.add(new FieldProblem(field, "must be at most " + MAX_TEXT + " characters"));
            return null;
        }
        if (!value.equals(value.strip())) {
            problems.add(new FieldProblem(field, "must not start or end with spaces: the platform sends it exactly"));
            return null;
        }
        return value;
    }

    /** The issuer is an identifier the id_token repeats exactly, an https URL (http if the operator allows it). */
    private void checkIssuer(String issuer, List<FieldProblem> problems) {
        try {
            URI uri = new URI(issuer);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme();
            boolean allowed = scheme.equals("https") || (scheme.equals("http") && settings.allowHttp());
            if (!uri.isAbsolute() || uri.getHost() == null || !allowed) {
                problems.add(new FieldProblem(
                        "issuer", settings.allowHttp() ? "must be an http or https URL" : "must be an https URL"));
            }
        } catch (URISyntaxException e) {
            problems.add(new FieldProblem("issuer", "is not a URL"));
        }
    }

    private static List<String> deployments(@Nullable List<String> values, List<FieldProblem> problems) {
        if (values == null || values.isEmpty()) {
            problems.add(new FieldProblem("deployment_ids", "must list at least one deployment id"));
            return List.of();
        }
        if (values.size() > MAX_DEPLOYMENTS) {
            problems.add(new FieldProblem("deployment_ids", "must list at most " + MAX_DEPLOYMENTS));
            return List.of();
        }
        LinkedHashSet<String> unique = new LinkedHashSet<>();
        for (int i = 0; i < values.size(); i++) {
            String value = identifier("deployment_ids[" + i + "]", values.get(i), problems);
            if (value != null) {
                unique.add(value);
            }
        }
        return List.copyOf(unique);
    }

    private @Nullable String url(String field, @Nullable String value, List<FieldProblem> problems) {
        if (value != null && value.length() > MAX_URL) {
            problems.add(new FieldProblem(field, "must be at most " + MAX_URL + " characters"));
            return null;
        }
        if (value != null && value.contains("#")) {
            problems.add(new FieldProblem(field, "must not have a #fragment"));
            return null;
        }
        try {
            return destinations.checked(field, value == null ? "" : value).toString();
        } catch (DestinationRefused refused) {
            problems.addAll(refused.errors());
            return null;
        }
    }
}
