package com.chatreview.lti.platform;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A placement of the tool in a course: what a learner clicks. {@code url} is the tool's target link ({@code null}:
 * the tool's registered launch URL); {@code lineItem} the gradebook column it reports to, if any.
 */
public record ResourceLink(
        String id,
        String title,
        @Nullable String url,
        Map<String, String> custom,
        @Nullable LineItem lineItem) {}
