/**
 * Quotas: requests per tenant, failed authentications per address, frames per connection, connections per
 * tenant. In-process buckets on one node; the same interface backs onto Redis for a cluster.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Rate limits")
package com.chatreview.ratelimit;
