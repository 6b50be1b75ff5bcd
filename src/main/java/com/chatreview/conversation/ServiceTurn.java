package com.chatreview.conversation;

import com.chatreview.chat.ChatId;
import com.chatreview.chat.NewMessage;
import com.chatreview.tenancy.TenantId;
import com.chatreview.usage.UsageKind;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A turn of a chat that the service starts itself (a homework review): a message it stores in the chat on a user's
 * behalf, answered by an answer the caller generates and stores through the {@link OpenTurn}.
 *
 * @param userId the user the message is stored for; the stream events name them as the user being answered
 * @param question the user message; with a {@code clientMessageId}, a turn run again (after a crash) finds the
 *     message already stored and answers it without storing it twice
 * @param kind what the answer's tokens are counted as; {@code null} when the answer is not the AI's work (a teacher's
 *     answer to a regrade request): nothing is counted
 */
public record ServiceTurn(
        TenantId tenantId,
        ChatId chatId,
        String userId,
        NewMessage question,
        @Nullable UsageKind kind) {

    public ServiceTurn {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(chatId, "chatId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(question, "question");
    }
}
