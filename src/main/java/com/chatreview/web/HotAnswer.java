package com.chatreview.web;

import java.util.Map;

/**
 * What a {@link HotRoute} answers: the status (200, or 304 with an empty body), the route's path pattern (the
 * {@code uri} of its {@code http.server.requests} metric, as Spring MVC would name it), the headers in order, and the
 * JSON body. {@code X-Request-Id}, {@code Content-Type} and {@code Content-Length} are added by {@link HotReads}.
 */
public record HotAnswer(int status, String pathPattern, Map<String, String> headers, byte[] json) {}
