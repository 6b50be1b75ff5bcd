package com.chatreview.chatui;

import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's chat page settings. A {@code null} list means "anywhere" (the default); an empty list "nowhere but
 * the page itself".
 *
 * @param requireEmbedToken whether the page needs a signed, expiring embed token besides the chat id
 * @param frameAncestors the sites that may frame the page, as CSP {@code frame-ancestors} sources
 * @param allowedOrigins the origins (besides the page's own) that may open {@code /ws/chat-ui}
 */
public record EmbedPolicy(
        UUID tenantId,
        boolean requireEmbedToken,
        @Nullable List<String> frameAncestors,
        @Nullable List<String> allowedOrigins) {

    public EmbedPolicy {
        frameAncestors = frameAncestors == null ? null : List.copyOf(frameAncestors);
        allowedOrigins = allowedOrigins == null ? null : List.copyOf(allowedOrigins);
    }

    /** What a tenant that set nothing gets: the bare link works, from anywhere, in any frame. */
    static EmbedPolicy defaults(UUID tenantId) {
        return new EmbedPolicy(tenantId, false, null, null);
    }

    /** The value of the page's CSP {@code frame-ancestors} directive. */
    public String frameAncestorsDirective() {
        if (frameAncestors == null) {
            return "*";
        }
        return frameAncestors.isEmpty() ? "'none'" : String.join(" ", frameAncestors);
    }
}
