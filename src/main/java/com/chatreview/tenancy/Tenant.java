package com.chatreview.tenancy;

import java.util.UUID;

/**
 * The tenant a request acts for, as its API key proved. Controllers take it as a parameter.
 *
 * @param id the tenant
 * @param apiKeyId the key that made the request (kept in audit trails)
 */
public record Tenant(TenantId id, UUID apiKeyId) {}
