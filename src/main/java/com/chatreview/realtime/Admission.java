package com.chatreview.realtime;

import com.chatreview.chat.ChatEntry;
import com.chatreview.chat.ChatId;
import com.chatreview.tenancy.TenantId;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** What a {@link ChatAccess} decided about a new connection. */
public sealed interface Admission {

    /**
     * The connection acts for this tenant and user on this chat.
     *
     * @param apiKeyId the key that opened it, so that revoking the key closes it; {@code null} when no key did
     * @param validUntil when what let it in expires (an embed token), after which it is closed with 4401;
     *     {@code null} for as long as it stays open
     * @param latestEventSeq the highest event seq a stored message of the chat carried when it was admitted
     * @param userCreated whether the user was seen for the first time (the connection is told {@code user_created})
     */
    record Admitted(
            TenantId tenantId,
            @Nullable UUID apiKeyId,
            String userId,
            ChatId chatId,
            @Nullable Instant validUntil,
            long latestEventSeq,
            boolean userCreated)
            implements Admission {
        public Admitted {
            Objects.requireNonNull(tenantId);
            Objects.requireNonNull(userId);
            Objects.requireNonNull(chatId);
        }
    }

    /**
     * Refused: the {@code error} event of the reason, with this message, then the reason's close code.
     *
     * @param fix the advice of {@code details.fix}; {@code null} gives the reason's usual advice
     */
    record Refused(Reason reason, String message, @Nullable String fix) implements Admission {
        public Refused {
            Objects.requireNonNull(reason);
            Objects.requireNonNull(message);
        }
    }

    /**
     * Refused before anything was checked: the client's address has failed to authenticate too often
     * ({@code RATE_LIMITED} with {@code details.retry_after_ms}, close 4429).
     */
    record Throttled(Duration retryAfter) implements Admission {}

    /** Why a connection is refused: each has its {@code error_code} and close code. */
    enum Reason {
        /** {@code AUTH_ERROR}, close 4401. */
        UNAUTHORIZED,
        /** {@code CHAT_NOT_FOUND}, close 4404. */
        CHAT_NOT_FOUND,
        /** {@code ORIGIN_NOT_ALLOWED}, close 4403: the page that opened it is not on the tenant's list. */
        ORIGIN_NOT_ALLOWED
    }

    static Admission admitted(TenantId tenantId, UUID apiKeyId, String userId, ChatEntry entry) {
        return new Admitted(
                tenantId, apiKeyId, userId, entry.chat().id(), null, entry.latestEventSeq(), entry.userCreated());
    }

    public static Admission throttled(Duration retryAfter) {
        return new Throttled(retryAfter);
    }

    static Admission refused(Reason reason, String message) {
        return new Refused(reason, message, null);
    }
}
