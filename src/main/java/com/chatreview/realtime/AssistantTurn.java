package com.chatreview.realtime;

import com.chatreview.assistant.AssistantReply;
import com.chatreview.chat.ChatMessage;
import com.chatreview.chat.NewMessage;
import com.chatreview.tenancy.TenantId;
import com.chatreview.usage.UsageKind;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A turn of a chat that the service starts itself: a message it stores in the chat on a user's behalf, and the
 * assistant's answer to it.
 *
 * @param userId the user the message is stored for; the stream events name them as the user being answered
 * @param question the user message; with a {@code clientMessageId}, a turn run again (after a crash) finds the
 *     message already stored and answers it without storing it twice
 */
public record AssistantTurn(TenantId tenantId, UUID chatId, String userId, NewMessage question, Answer answer) {

    public AssistantTurn {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(chatId, "chatId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(answer, "answer");
    }

    /** How the answer is made, and what is stored with it. */
    public interface Answer {

        /** Generates the answer, handing each piece to {@code tokens} as it comes (see {@code Assistant}). */
        AssistantReply generate(Consumer<String> tokens);

        /**
         * Runs in the transaction that stores the answer, so that whatever else records it commits with it or not
         * at all.
         */
        default void stored(ChatMessage reply) {}

        /** What the answer's tokens are counted as: a reply in a chat, unless the turn is a review. */
        default UsageKind kind() {
            return UsageKind.CHAT;
        }
    }
}
