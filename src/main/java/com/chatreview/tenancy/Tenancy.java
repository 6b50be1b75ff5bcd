package com.chatreview.tenancy;

import com.chatreview.database.AfterCommit;
import com.chatreview.database.Sql;
import com.chatreview.kernel.Ids;
import com.chatreview.tenancy.TenancyErrors.ApiKeyNotFound;
import com.chatreview.tenancy.TenancyErrors.InvalidTenantName;
import com.chatreview.tenancy.TenancyErrors.TenantNotFound;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Tenants and their keys: the operator's side, and the check every request makes. */
@Service
public class Tenancy {

    private final Tenants tenants;
    private final ApiKeys keys;
    private final ApplicationEventPublisher events;
    private final KeyRevocations revocations;
    private final KnownKeys known;
    private final Cache<String, Tenant> recentlyChecked;
    /** Keys found to be no active key: asked again only after the cache's time, so guesses cost no query. */
    private final Cache<String, Boolean> recentlyUnknown;

    private final Clock clock;

    Tenancy(
            Tenants tenants,
            ApiKeys keys,
            ApplicationEventPublisher events,
            TenancySettings settings,
            KeyRevocations revocations,
            KnownKeys known,
            Clock clock) {
        this.clock = clock;
        this.known = known;
        this.tenants = tenants;
        this.keys = keys;
        this.events = events;
        this.revocations = revocations;
        this.recentlyChecked = Caffeine.newBuilder()
                .expireAfterWrite(settings.keyCacheTtl())
                .maximumSize(100_000)
                .build();
        this.recentlyUnknown = Caffeine.newBuilder()
                .expireAfterWrite(settings.keyCacheTtl())
                .maximumSize(100_000)
                .build();
    }

    /** A new tenant and its first key. */
    public record NewTenant(TenantRecord tenant, UUID apiKeyId, String apiKey) {}

    /** A key as issued: the only time its value is shown. */
    public record IssuedKey(UUID id, String apiKey, Instant createdAt) {}

    @Transactional
    public NewTenant createTenant(String name) {
        if (name == null || name.isBlank() || name.length() > 200) {
            throw new InvalidTenantName();
        }
        TenantRecord tenant = new TenantRecord(UUID.randomUUID(), name.strip(), now());
        tenants.insert(tenant);
        ApiKeys.Issued key = keys.issue(tenant.id(), tenant.createdAt());
        known.issued(key.apiKey());
        return new NewTenant(tenant, key.id(), key.apiKey());
    }

    /** The tenant with this id, as the operator names it in a path; {@code NOT_FOUND} when there is none. */
    public TenantId existing(String tenantId) {
        return TenantId.of(existingTenant(tenantId));
    }

    public List<TenantRecord> tenants() {
        return tenants.all();
    }

    public boolean anyTenant() {
        return tenants.any();
    }

    @Transactional
    public IssuedKey issueKey(String tenantId) {
        UUID id = existingTenant(tenantId);
        ApiKeys.Issued key = keys.issue(id, now());
        known.issued(key.apiKey());
        return new IssuedKey(key.id(), key.apiKey(), key.createdAt());
    }

    /**
     * Revokes the key: it fails on every node from now on, and {@link ApiKeyRevoked} closes what it holds open, on
     * every node.
     */
    @Transactional
    public void revokeKey(String tenantId, String keyId) {
        UUID tenant = existingTenant(tenantId);
        UUID key = Ids.uuid(keyId).orElseThrow(() -> new ApiKeyNotFound(keyId));
        if (!keys.revoke(tenant, key, now())) {
            throw new ApiKeyNotFound(keyId);
        }
        ApiKeyRevoked revoked = new ApiKeyRevoked(tenant, key);
        // once committed, not before: a request in between would find the key still active and cache it again
        AfterCommit.run(() -> {
            forget(revoked);
            events.publishEvent(revoked);
            revocations.announce(revoked);
        });
    }

    /** A key revoked on another node: forgotten here, and what it holds open here closed. */
    void revokedElsewhere(ApiKeyRevoked revoked) {
        forget(revoked);
        events.publishEvent(revoked);
    }

    /** Forgets a key this node trusted, which turned out revoked. */
    public void forget(ApiKeyRevoked revoked) {
        recentlyChecked.asMap().values().removeIf(cached -> cached.apiKeyId().equals(revoked.apiKeyId()));
    }

    /**
     * The tenant whose active key this is, if this node checked it lately; nothing is looked up (an unknown key is
     * for {@link #authenticate}).
     */
    public Optional<Tenant> recentlyAuthenticated(String apiKey) {
        return Optional.ofNullable(recentlyChecked.getIfPresent(apiKey));
    }

    /**
     * Whether this is a key the service knows as active (checked lately, or among the active keys' hashes), without
     * a query: an address past its failure budget is still heard with such a key.
     */
    public boolean knows(String apiKey) {
        return apiKey != null
                && apiKey.startsWith(ApiKeys.PREFIX)
                && apiKey.length() <= 200
                && (recentlyChecked.getIfPresent(apiKey) != null || known.knows(apiKey));
    }

    /** The tenant whose active key this is, if it is one. */
    public Optional<Tenant> authenticate(String apiKey) {
        if (apiKey == null || !apiKey.startsWith(ApiKeys.PREFIX) || apiKey.length() > 200) {
            return Optional.empty();
        }
        Tenant cached = recentlyChecked.getIfPresent(apiKey);
        if (cached != null) {
            if (!revocations.revoked(cached.apiKeyId())) {
                return Optional.of(cached);
            }
            recentlyChecked.invalidate(apiKey);
        }
        if (recentlyUnknown.getIfPresent(apiKey) != null) {
            return Optional.empty();
        }
        Optional<Tenant> found = keys.findActive(apiKey);
        found.ifPresentOrElse(
                tenant -> recentlyChecked.put(apiKey, tenant), () -> recentlyUnknown.put(apiKey, Boolean.TRUE));
        return found;
    }

    private UUID existingTenant(String tenantId) {
        return Ids.uuid(tenantId).filter(tenants::exists).orElseThrow(() -> new TenantNotFound(tenantId));
    }

    private Instant now() {
        return Sql.now(clock);
    }
}
