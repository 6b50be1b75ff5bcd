/**
 * The connection to Redis ({@code REDIS_URL}), for what must hold across the nodes of a cluster. Without a URL
 * there is none, and every module uses its in-process implementation: the single-node default.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Redis")
package com.chatreview.redis;
