/**
 * What the operator's metrics may say about tenants ({@link com.chatreview.metrics.TenantTags}): a tenant's own
 * series only for the tenants the operator names, so that the series do not grow with the number of tenants.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Metrics")
package com.chatreview.metrics;
