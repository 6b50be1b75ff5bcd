package com.chatreview.support;

import com.chatreview.tenancy.Tenancy;

/** Fresh tenants for tests, so that no two tests share data or a rate-limit bucket. */
public final class Tenants {

    private Tenants() {}

    /** A new tenant; its key works in both {@code X-API-Key} and {@code x-tenant-api-secret}. */
    public record TestTenant(String id, String apiKey) {
        public Api chats(Api api) {
            return api.with("X-API-Key", apiKey);
        }

        public Api homework(Api api) {
            return api.with("x-tenant-api-secret", apiKey);
        }
    }

    public static TestTenant create(Tenancy tenancy, String name) {
        Tenancy.NewTenant created = tenancy.createTenant(name);
        return new TestTenant(created.tenant().id().toString(), created.apiKey());
    }
}
