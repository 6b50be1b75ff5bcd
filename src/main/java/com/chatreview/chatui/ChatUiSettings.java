package com.chatreview.chatui;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
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
 * @param publicUrl where clients reach the service ({@code PUBLIC_URL}): without {@code url}, the page is
 *     {@code publicUrl/chat}
 * @param allowedHosts the hosts a request's {@code Host} may name for links built from it when neither URL is set
 *     ({@code ALLOWED_HOSTS}); any other host never appears in a link the service writes
 */
@ConfigurationProperties("chat-ui")
public record ChatUiSettings(
        @Nullable String url,
        @DefaultValue("1h") Duration embedTokenTtl,
        @DefaultValue("24h") Duration embedTokenMaxTtl,
        @DefaultValue("60") int pageRequestsPerMinute,
        @Nullable String publicUrl,
        @DefaultValue("localhost,127.0.0.1") java.util.List<String> allowedHosts) {}
