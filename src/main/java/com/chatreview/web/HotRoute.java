package com.chatreview.web;

import org.jspecify.annotations.Nullable;

/**
 * A read served by a Jetty handler ahead of the servlet container ({@link HotReads}), for the few GETs hot enough
 * that the servlet layers cost more CPU than the read itself (docs/benchmarks.md, "The hot reads against the
 * reference"). A route answers only what it can finish to the letter as its Spring MVC controller would, and returns
 * null for everything else: the servlet stack then answers the request as if the route had not been asked, reusing
 * whatever the route remembered in the request's attributes (the key check and the quota spent, say).
 */
public interface HotRoute {

    /** The path prefix of every request this route may answer: the others are not offered to it. */
    String pathPrefix();

    /**
     * The answer, or null to leave the request to the servlet stack. An exception (a chat not found, the database
     * away) leaves it too: the controller then answers the same fact as a problem.
     */
    @Nullable
    HotAnswer answer(HotRequest request);
}
