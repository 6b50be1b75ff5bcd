package com.chatreview.webhook;

/** An endpoint with its signing secret, as shown once: when it is registered and when its secret is rotated. */
public record WebhookWithSecret(WebhookEndpoint endpoint, String secret) {}
