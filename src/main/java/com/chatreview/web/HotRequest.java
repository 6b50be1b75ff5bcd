package com.chatreview.web;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.util.Attributes;
import org.jspecify.annotations.Nullable;

/**
 * A GET as a {@link HotRoute} sees it, ahead of the servlet container: the raw path and query, the headers, the
 * client's address (after the trusted proxies' forwarding headers), and the request's attributes, which the servlet
 * stack sees as its own when the route leaves the request to it.
 */
public final class HotRequest {

    private final String path;
    private final @Nullable String query;
    private final HttpFields headers;
    private final String remoteAddress;
    private final Attributes attributes;

    public HotRequest(
            String path, @Nullable String query, HttpFields headers, String remoteAddress, Attributes attributes) {
        this.path = path;
        this.query = query;
        this.headers = headers;
        this.remoteAddress = remoteAddress;
        this.attributes = attributes;
    }

    /** The path as sent (not decoded), as {@code HttpServletRequest.getRequestURI()} gives it. */
    public String path() {
        return path;
    }

    /** The query as sent (not decoded), or null without one. */
    public @Nullable String query() {
        return query;
    }

    /** The first value of the header, or null. */
    public @Nullable String header(String name) {
        return headers.get(name);
    }

    public String remoteAddress() {
        return remoteAddress;
    }

    public @Nullable Object attribute(String name) {
        return attributes.getAttribute(name);
    }

    public void setAttribute(String name, Object value) {
        attributes.setAttribute(name, value);
    }
}
