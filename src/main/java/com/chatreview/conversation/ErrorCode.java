package com.chatreview.conversation;

import com.chatreview.kernel.RetryLater;
import com.chatreview.kernel.ServiceError;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** The WebSocket {@code error} events, each with the advice its {@code details.fix} gives. */
public enum ErrorCode {
    AUTH_ERROR("Check the API key, and give api_key, user_id and chat_id as query parameters or as the headers"
            + " X-API-Key, X-User-ID and X-Chat-ID."),
    CHAT_NOT_FOUND("Create the chat first with POST /api/v1/chats, then connect with the id it returns."),
    ORIGIN_NOT_ALLOWED("Open the chat page from a site the tenant allows (its chat page setting allowed_origins)."),
    CONNECTION_LIMIT_EXCEEDED("Close connections the tenant no longer uses, or ask the operator for a higher"
            + " LIMIT_WS_CONNECTIONS_PER_TENANT."),
    INVALID_MESSAGE("Send a text frame holding a JSON object {\"content\": \"...\"} with an optional metadata object"
            + " and client_message_id (at most 128 characters), at most 64 KiB."),
    RATE_LIMITED("Send at most the allowed frames per second; wait retry_after_ms before the next one."),
    CHAT_CLOSED("The chat is closed: reopen it with PATCH /api/v1/chats/{chat_id} {\"status\":\"active\"} or"
            + " create a new chat."),
    AI_ERROR("The AI provider failed to answer; your message is stored. Send it again later, or ask the operator"
            + " to check the AI provider."),
    REPLY_INTERRUPTED("The node generating the reply details.message_id stopped before storing it: drop what it"
            + " streamed. Your message is stored and is answered again: a new message_stream_started follows."),
    BUDGET_EXHAUSTED("An AI budget is spent: nothing was stored. Send the message again after details.resets_at, or"
            + " have the budget raised."),
    SERVICE_UNAVAILABLE("Nothing was stored; send the message again after retry_after_ms."),
    INTERNAL_ERROR("Try again; if it keeps failing, report it to the operator.");

    private final String fix;

    ErrorCode(String fix) {
        this.fix = fix;
    }

    public String fix() {
        return fix;
    }

    /**
     * The one table from a domain failure's code to the error a WebSocket client is told; exhaustive, so a new code
     * must be given one here. A connection names one thing, its chat: whatever is not found is the chat.
     */
    public static ErrorCode of(ServiceError.Code code) {
        return switch (code) {
            case NOT_FOUND -> CHAT_NOT_FOUND;
            case CHAT_CLOSED -> CHAT_CLOSED;
            case UNAUTHORIZED, EMBED_TOKEN_REQUIRED, EMBED_TOKEN_INVALID, EMBED_TOKEN_EXPIRED, ADMIN_API_DISABLED ->
                AUTH_ERROR;
            case VALIDATION_ERROR, PAYLOAD_TOO_LARGE -> INVALID_MESSAGE;
            case RATE_LIMITED -> RATE_LIMITED;
            case SERVICE_UNAVAILABLE -> SERVICE_UNAVAILABLE;
            case CONFLICT, IDEMPOTENCY_KEY_IN_USE, IDEMPOTENCY_KEY_REUSED, STORAGE_QUOTA_EXCEEDED -> INTERNAL_ERROR;
        };
    }

    /**
     * A domain failure as an {@code error} event: its code's error and fix, its detail as the message, and
     * {@code details.retry_after_ms} when it passes.
     */
    public static ServerEvent.Error event(ServiceError failure) {
        Map<String, Object> details = failure instanceof RetryLater later
                ? Map.of("retry_after_ms", later.retryAfter().toMillis())
                : Map.of();
        return of(failure.code()).event(String.valueOf(failure.getMessage()), details);
    }

    public ServerEvent.Error event(String message) {
        return event(message, Map.of());
    }

    /** The error with {@code details}: its {@code fix}, then the given details, in their order. */
    public ServerEvent.Error event(String message, Map<String, Object> moreDetails) {
        return event(message, fix, moreDetails);
    }

    /** The error with a {@code details.fix} of the case's own. */
    public ServerEvent.Error event(String message, String fix, Map<String, Object> moreDetails) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("fix", fix);
        details.putAll(moreDetails);
        return new ServerEvent.Error(Instant.now(), name(), message, details, null, null);
    }
}
