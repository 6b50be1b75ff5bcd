package com.chatreview.homework;

import java.time.Instant;
import java.util.UUID;

public record Course(UUID id, UUID tenantId, String teacherId, String name, Instant createdAt, Instant updatedAt) {}
