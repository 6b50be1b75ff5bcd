package com.chatreview.homework;

import com.chatreview.tenancy.TenantId;
import java.time.Instant;
import java.util.UUID;

public record Course(UUID id, TenantId tenantId, String teacherId, String name, Instant createdAt, Instant updatedAt) {}
