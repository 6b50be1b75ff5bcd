package com.chatreview.tenancy;

import java.time.Instant;
import java.util.UUID;

/** A tenant as the operator sees it. */
public record TenantRecord(UUID id, String name, Instant createdAt) {}
