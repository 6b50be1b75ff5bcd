package com.chatreview.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.chat.ChatErrors.ChatIsClosed;
import com.chatreview.chat.ChatErrors.ChatNotFound;
import com.chatreview.kernel.ServiceError;
import com.chatreview.kernel.ServiceUnavailable;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A domain failure told over the WebSocket: the error its code maps to, with that error's fix. */
class ErrorCodeTests {

    /** The whole table, pinned: a domain code told as another error over the socket is a change a client sees. */
    @ParameterizedTest
    @CsvSource({
        "NOT_FOUND, CHAT_NOT_FOUND",
        "CHAT_CLOSED, CHAT_CLOSED",
        "UNAUTHORIZED, AUTH_ERROR",
        "EMBED_TOKEN_REQUIRED, AUTH_ERROR",
        "EMBED_TOKEN_INVALID, AUTH_ERROR",
        "EMBED_TOKEN_EXPIRED, AUTH_ERROR",
        "ADMIN_API_DISABLED, AUTH_ERROR",
        "VALIDATION_ERROR, INVALID_MESSAGE",
        "PAYLOAD_TOO_LARGE, INVALID_MESSAGE",
        "RATE_LIMITED, RATE_LIMITED",
        "SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE",
        "CONFLICT, INTERNAL_ERROR",
        "IDEMPOTENCY_KEY_IN_USE, INTERNAL_ERROR",
        "IDEMPOTENCY_KEY_REUSED, INTERNAL_ERROR",
        "STORAGE_QUOTA_EXCEEDED, INTERNAL_ERROR"
    })
    void everyCodeIsToldAsItsError(ServiceError.Code code, String error) {
        assertThat(ErrorCode.of(code).name()).isEqualTo(error);
    }

    @Test
    void theTableNamesEveryCode() {
        assertThat(ServiceError.Code.values()).hasSize(15);
    }

    /** What each error tells the client to do, word for word: the interface's clients read it. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "AUTH_ERROR|Check the API key, and give api_key, user_id and chat_id as query parameters or as the"
                        + " headers X-API-Key, X-User-ID and X-Chat-ID.",
                "CHAT_NOT_FOUND|Create the chat first with POST /api/v1/chats, then connect with the id it returns.",
                "ORIGIN_NOT_ALLOWED|Open the chat page from a site the tenant allows (its chat page setting"
                        + " allowed_origins).",
                "CONNECTION_LIMIT_EXCEEDED|Close connections the tenant no longer uses, or ask the operator for a"
                        + " higher LIMIT_WS_CONNECTIONS_PER_TENANT.",
                "INVALID_MESSAGE|Send a text frame holding a JSON object {\"content\": \"...\"} with an optional"
                        + " metadata object and client_message_id (at most 128 characters), at most 64 KiB.",
                "RATE_LIMITED|Send at most the allowed frames per second; wait retry_after_ms before the next one.",
                "CHAT_CLOSED|The chat is closed: reopen it with PATCH /api/v1/chats/{chat_id} {\"status\":\"active\"}"
                        + " or create a new chat.",
                "AI_ERROR|The AI provider failed to answer; your message is stored. Send it again later, or ask the"
                        + " operator to check the AI provider.",
                "REPLY_INTERRUPTED|The node generating the reply details.message_id stopped before storing it: drop"
                        + " what it streamed. Your message is stored and is answered again: a new"
                        + " message_stream_started follows.",
                "BUDGET_EXHAUSTED|An AI budget is spent: nothing was stored. Send the message again after"
                        + " details.resets_at, or have the budget raised.",
                "SERVICE_UNAVAILABLE|Nothing was stored; send the message again after retry_after_ms.",
                "INTERNAL_ERROR|Try again; if it keeps failing, report it to the operator."
            })
    void everyErrorSaysWhatToDo(String error, String fix) {
        assertThat(ErrorCode.valueOf(error).fix()).isEqualTo(fix);
        assertThat(ErrorCode.valueOf(error).event("m").details()).containsEntry("fix", fix);
    }

    @Test
    void anUnreachableLaneSaysWhenToSendAgain() {
        ServerEvent.Error event = ErrorCode.event(
                new ServiceUnavailable("The lane is unreachable", "ignored here", Duration.ofMillis(2_500)));

        assertThat(event.errorCode()).isEqualTo("SERVICE_UNAVAILABLE");
        assertThat(event.errorMessage()).isEqualTo("The lane is unreachable");
        assertThat(event.details())
                .containsExactly(
                        Map.entry("fix", "Nothing was stored; send the message again after retry_after_ms."),
                        Map.entry("retry_after_ms", 2_500L));
    }

    @Test
    void theChatsOwnFailuresKeepTheirNames() {
        UUID chat = UUID.randomUUID();

        assertThat(ErrorCode.event(new ChatNotFound(chat)).errorCode()).isEqualTo("CHAT_NOT_FOUND");
        assertThat(ErrorCode.event(new ChatIsClosed(chat)).errorCode()).isEqualTo("CHAT_CLOSED");
    }
}
