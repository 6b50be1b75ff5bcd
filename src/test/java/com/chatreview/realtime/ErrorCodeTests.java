package com.chatreview.realtime;

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
import org.junit.jupiter.params.provider.EnumSource;

/** A domain failure told over the WebSocket: the error its code maps to, with that error's fix. */
class ErrorCodeTests {

    @ParameterizedTest
    @EnumSource(ServiceError.Code.class)
    void everyCodeIsToldAsAnError(ServiceError.Code code) {
        assertThat(ErrorCode.of(code)).isNotNull();
    }

    @Test
    void anUnreachableLaneSaysWhenToSendAgain() {
        ServerEvent.Error event = ErrorCode.event(
                new ServiceUnavailable("The lane is unreachable", "ignored here", Duration.ofMillis(2_500)));

        assertThat(event.errorCode()).isEqualTo("SERVICE_UNAVAILABLE");
        assertThat(event.errorMessage()).isEqualTo("The lane is unreachable");
        assertThat(event.details())
                .containsExactly(
                        Map.entry("fix", ErrorCode.SERVICE_UNAVAILABLE.fix()), Map.entry("retry_after_ms", 2_500L));
    }

    @Test
    void theChatsOwnFailuresKeepTheirNames() {
        UUID chat = UUID.randomUUID();

        assertThat(ErrorCode.event(new ChatNotFound(chat)).errorCode()).isEqualTo("CHAT_NOT_FOUND");
        assertThat(ErrorCode.event(new ChatIsClosed(chat)).errorCode()).isEqualTo("CHAT_CLOSED");
    }
}
