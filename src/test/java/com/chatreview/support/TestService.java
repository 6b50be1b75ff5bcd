package com.chatreview.support;

import com.chatreview.tenancy.Tenancy;

/**
 * The running service as a test sees it: its port, a client with no key and fresh tenants. An
 * {@link IntegrationTest}'s test, {@code @BeforeEach} or constructor gets it by naming it as a parameter (or a
 * {@link TestTenant}, for a tenant of its own), instead of each class repeating the port, the tenancy and the
 * set-up of a tenant.
 */
public record TestService(int port, Tenancy tenancy) {

    /** A client that sends no key. */
    public Api api() {
        return new Api(port);
    }

    /** A new tenant, so that no two tests share data or a rate-limit bucket. */
    public TestTenant newTenant(String name) {
        Tenancy.NewTenant created = tenancy.createTenant(name);
        return new TestTenant(created.tenant().id(), created.apiKey(), port);
    }
}
