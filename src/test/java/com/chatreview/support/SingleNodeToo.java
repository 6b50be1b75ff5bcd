package com.chatreview.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class that runs a second time on the embedded defaults (the embedded PostgreSQL the service starts itself,
 * and no Redis): the pass of {@code bin/test} for what differs there. A class earns it by exercising what a single
 * node does in-process and a cluster's node on Redis (rate limits, key revocations, chat events, connections, reply
 * lanes, streams in progress, owed replies, login states, erasure announcements), or the durable jobs on the
 * embedded PostgreSQL (that pass found a real scheduler defect once). The rest of the suite is the same code on the
 * same SQL either way and runs once. {@code .ci/run} fails when a class carrying this has no report of that pass.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("single-node")
public @interface SingleNodeToo {}
