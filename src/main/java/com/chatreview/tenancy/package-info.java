/**
 * Tenants, their API keys, and which tenant a request acts for. Every other module reads the tenant from here
 * and never sees a key.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Tenancy")
package com.chatreview.tenancy;
