package com.chatreview.tenancy;

import java.util.Objects;
import java.util.UUID;

/**
 * The tenant a call acts for. Every tenant-facing method of a module takes one, so that a call that forgets the
 * tenant, or passes a chat's id where the tenant's belongs, does not compile. The service's own access by id alone
 * (the review worker, the chat page's link) has entry points of its own, named for it.
 */
public record TenantId(UUID value) {

    public TenantId {
        Objects.requireNonNull(value, "a tenant id");
    }

    public static TenantId of(UUID value) {
        return new TenantId(value);
    }

    /** The id as the API writes it. */
    @Override
    public String toString() {
        return value.toString();
    }
}
