package com.chatreview.tenancy;

import com.chatreview.ratelimit.RateLimitDecision;
import com.chatreview.ratelimit.RequestQuotas;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * The one check of an API key, whichever way it comes in (the REST headers, {@code /ws/chat}): every failure is counted
 * against the client's address, and an address past its budget of failures is refused before any key is looked up,
 * unless it sends a key the service knows as active ({@link Tenancy#knows}, no query): the budget refuses guesses,
 * never valid keys (docs/api.md, Rate limits). Ways in that check something else than a key (the chat page's link)
 * spend the same budget through {@link #throttled} and {@link #failed}.
 */
@Service
public class Authenticator {

    private final Tenancy tenancy;
    private final RequestQuotas quotas;

    Authenticator(Tenancy tenancy, RequestQuotas quotas) {
        this.tenancy = tenancy;
        this.quotas = quotas;
    }

    /** What the check of a key found. */
    public sealed interface Result {
        /**
         * The key is an active key of the tenant.
         *
         * @param restQuota for a REST request, the tenant's quota after spending from it; {@code null} otherwise
         */
        record Authenticated(Tenant tenant, @Nullable RateLimitDecision restQuota) implements Result {
            Authenticated(Tenant tenant) {
                this(tenant, null);
            }
        }

        /** No key was given. */
        record Missing() implements Result {}

        /** The key is no active key. */
        record Invalid() implements Result {}

        /** The address has failed too often: nothing was checked. */
        record Throttled(Duration retryAfter) implements Result {}
    }

    public Result apiKey(@Nullable String apiKey, String clientAddress) {
        Duration wait = throttled(clientAddress);
        // the budget refuses guesses, never a key the service knows: a school behind one address is not locked out
        // by one student's typo (docs/api.md, Rate limits)
        if (wait != null && (apiKey == null || !tenancy.knows(apiKey.strip()))) {
            return new Result.Throttled(wait);
        }
        if (apiKey == null || apiKey.isBlank()) {
            failed(clientAddress);
            return new Result.Missing();
        }
        return tenancy.authenticate(apiKey.strip())
                .<Result>map(Result.Authenticated::new)
                .orElseGet(() -> {
                    failed(clientAddress);
                    return new Result.Invalid();
                });
    }

    /**
     * The check of a REST request's key, with the tenant's REST quota spent in the same step: a key this node knows
     * costs one round trip to Redis, for the address's failure budget, the key's revocation on any node and the
     * tenant's quota together.
     */
    public Result restRequest(@Nullable String apiKey, String clientAddress) {
        Optional<Tenant> known = apiKey == null ? Optional.empty() : tenancy.recentlyAuthenticated(apiKey.strip());
        if (apiKey != null && known.isPresent()) {
            Tenant tenant = known.get();
            return switch (quotas.restRequest(clientAddress, tenant.id().value(), tenant.apiKeyId())) {
                // a key checked lately is a known one: past the address's budget it is still heard
                case RequestQuotas.RestRequest.Throttled throttled -> knownKeyRequest(apiKey, clientAddress, tenant);
                case RequestQuotas.RestRequest.Counted counted -> new Result.Authenticated(tenant, counted.decision());
                case RequestQuotas.RestRequest.Revoked revoked -> {
                    // revoked on another node since this node checked it: the database says so now
                    tenancy.forget(new ApiKeyRevoked(tenant.id().value(), tenant.apiKeyId()));
                    yield apiKey(apiKey, clientAddress);
                }
            };
        }
        Result checked = apiKey(apiKey, clientAddress);
        if (checked instanceof Result.Authenticated(Tenant tenant, RateLimitDecision ignored)) {
            return new Result.Authenticated(
                    tenant, quotas.restRequest(tenant.id().value()));
        }
        return checked;
    }

    private Result knownKeyRequest(String apiKey, String clientAddress, Tenant tenant) {
        return switch (quotas.restRequestOfKnownKey(tenant.id().value(), tenant.apiKeyId())) {
            case RequestQuotas.RestRequest.Counted counted -> new Result.Authenticated(tenant, counted.decision());
            case RequestQuotas.RestRequest.Revoked revoked -> {
                tenancy.forget(new ApiKeyRevoked(tenant.id().value(), tenant.apiKeyId()));
                yield apiKey(apiKey, clientAddress);
            }
            case RequestQuotas.RestRequest.Throttled throttled -> new Result.Throttled(throttled.retryAfter());
        };
    }

    /** How long the address must wait before anything it sends is checked; null when it may be heard. */
    public @Nullable Duration throttled(String clientAddress) {
        return quotas.authenticationBlocked(clientAddress).orElse(null);
    }

    /**
     * Spends one look-up of a credential the node cannot vouch for without one (a chat link opened on another node)
     * from the address's budget of look-ups while it is past its failures; whether there was one.
     */
    public boolean mayLookUpWhileThrottled(String clientAddress) {
        return quotas.lookUpWhileThrottled(clientAddress);
    }

    /** Counts a failed check (of a key, a link, a token) against the address. */
    public void failed(String clientAddress) {
        quotas.authenticationFailed(clientAddress);
    }
}
