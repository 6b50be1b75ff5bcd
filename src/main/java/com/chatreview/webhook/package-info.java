/**
 * Webhooks (docs/api.md, Webhooks, Standard Webhooks): the endpoints a tenant registers, their signing secrets (shown once,
 * rotated with a day's overlap, stored sealed with the operator's key), and where a delivery may go (https, no
 * private networks unless the operator allows them).
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Webhooks")
package com.chatreview.webhook;
