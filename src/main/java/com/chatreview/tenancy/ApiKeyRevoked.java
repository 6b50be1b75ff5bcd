package com.chatreview.tenancy;

import java.util.UUID;

/** A key stopped working; whatever it holds open (WebSocket connections) must close. */
public record ApiKeyRevoked(UUID tenantId, UUID apiKeyId) {}
