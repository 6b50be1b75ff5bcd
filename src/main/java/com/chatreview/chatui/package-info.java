/**
 * The chat page behind a submission's {@code chatIframeUrl} (docs/chat-ui.md): the page itself, its API without a
 * tenant key ({@code /chat-ui/api/**} and the WebSocket {@code /ws/chat-ui}, acting as the chat's owner), signed
 * embed tokens, and each tenant's page settings (token required, who may frame it, which origins may connect).
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Chat UI")
package com.chatreview.chatui;
