package com.chatreview.ratelimit;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The limits of the interface (docs/api.md, Rate limits).
 *
 * @param restPerMinute REST requests per tenant per minute ({@code RATE_LIMIT_REST_PER_MINUTE})
 * @param authFailuresPerMinute failed authentications per client address per minute before it gets 429
 * @param wsMessagesPerSecond client frames per WebSocket connection per second
 *     ({@code RATE_LIMIT_WS_MESSAGES_PER_SECOND})
 * @param wsConnectionsPerTenant open WebSocket connections per tenant ({@code LIMIT_WS_CONNECTIONS_PER_TENANT})
 * @param wsLinkConnectionsPerChat open connections of one chat opened by its link, without a tenant key (the chat
 *     page's), so that one link cannot take the tenant's whole allowance ({@code LIMIT_WS_LINK_CONNECTIONS_PER_CHAT})
 * @param chatUiConnectionsPerTenant open connections per tenant opened by chat links (the chat page's), counted
 *     apart from {@code wsConnectionsPerTenant}: holders of links cannot use up the connections of the tenant's own
 *     backend ({@code LIMIT_CHAT_UI_CONNECTIONS_PER_TENANT})
 * @param throttledLinkLookupsPerMinute look-ups of chat links that an address past its failure budget may still have
 *     per minute (a link opened on another node, or never opened), so that valid links are not locked out while
 *     guesses stay bounded ({@code RATE_LIMIT_THROTTLED_LINK_LOOKUPS_PER_MINUTE})
 */
@ConfigurationProperties("rate-limit")
public record RateLimitSettings(
        @DefaultValue("100") int restPerMinute,
        @DefaultValue("60") int authFailuresPerMinute,
        @DefaultValue("10") int wsMessagesPerSecond,
        @DefaultValue("50") int wsConnectionsPerTenant,
        @DefaultValue("5") int wsLinkConnectionsPerChat,
        @DefaultValue("500") int chatUiConnectionsPerTenant,
        @DefaultValue("600") int throttledLinkLookupsPerMinute) {

    public RateLimitSettings {
        if (restPerMinute < 1
                || authFailuresPerMinute < 1
                || wsMessagesPerSecond < 1
                || wsConnectionsPerTenant < 1
                || wsLinkConnectionsPerChat < 1
                || chatUiConnectionsPerTenant < 1
                || throttledLinkLookupsPerMinute < 1) {
            throw new IllegalArgumentException("every rate limit must be at least 1");
        }
    }
}
