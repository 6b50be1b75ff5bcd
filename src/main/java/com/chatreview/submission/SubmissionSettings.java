package com.chatreview.submission;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param chatUiUrl where the chat page is served ({@code CHAT_UI_URL}); blank: {@code {base_url}/chat} of the
 *     request. A submission's {@code chatIframeUrl} is {@code {chatUiUrl}/?chat_id=<chatId>}.
 */
@ConfigurationProperties("submission")
public record SubmissionSettings(String chatUiUrl) {}
