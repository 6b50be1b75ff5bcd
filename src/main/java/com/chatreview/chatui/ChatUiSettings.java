package com.chatreview.chatui;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The chat page.
 *
 * @param url where browsers reach the page ({@code CHAT_UI_URL}); blank: {@code {base_url}/chat} of the request.
 *     Its origin is also an origin the page's WebSocket is always accepted from.
 * @param embedTokenTtl how long an embed token lasts when the tenant does not say
 * @param embedTokenMaxTtl the longest lifetime a tenant may ask for
 * @param pageRequestsPerMinute history requests ({@code GET /chat-ui/api/chats/{id}}) per chat and minute
 */
@ConfigurationProperties("chat-ui")
public record ChatUiSettings(
        String url,
        @DefaultValue("1h") Duration embedTokenTtl,
        @DefaultValue("24h") Duration embedTokenMaxTtl,
        @DefaultValue("60") int pageRequestsPerMinute) {}
