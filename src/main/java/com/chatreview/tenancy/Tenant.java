package com.chatreview.tenancy;

import io.swagger.v3.oas.annotations.Hidden;
import java.util.UUID;

/**
 * The tenant a request acts for, as its API key proved. Controllers take it as a parameter.
 *
 * @param id the tenant
 * @param apiKeyId the key that made the request (kept in audit trails)
 */
@Hidden // resolved from the API key, never sent: the API documentation lists no such parameter
public record Tenant(TenantId id, UUID apiKeyId) {}
