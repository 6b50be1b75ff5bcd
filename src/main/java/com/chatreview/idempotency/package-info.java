/**
 * {@code Idempotency-Key} on creating requests (docs/decisions.md): the first response is kept for 24 hours and
 * replayed for the same request; the same key on a different request is refused.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Idempotency")
package com.chatreview.idempotency;
