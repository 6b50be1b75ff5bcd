package com.chatreview.chat;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The service's own access to a chat by its id alone, checking no tenant: for the chat page, whose link is the
 * credential (docs/chat-ui.md), and for the realtime relay once a connection was admitted to the chat (its event
 * sequence, the history a reply is made from, the messages a resuming client missed). Whatever acts for a tenant
 * goes through {@link ChatManagement}, which asks for the tenant on every call.
 */
@Service
public class ChatsById {

    private final Chats chats;
    private final Messages messages;

    ChatsById(Chats chats, Messages messages) {
        this.chats = chats;
        this.messages = messages;
    }

    /** The chat page's connection, as the chat's owner (who exists with the chat): one round trip. */
    public Optional<ChatEntry> enterByLink(ChatId chatId) {
        return chats.enterByLink(chatId);
    }

    /**
     * The chat with this id, of whichever tenant: for the chat page, whose link (a random UUID) is the credential
     * (docs/chat-ui.md). Every other caller names its tenant with {@link ChatManagement#find}.
     */
    public Optional<Chat> findByLink(ChatId chatId) {
        return chats.findAnyTenant(chatId);
    }

    /** Messages announced by an event after {@code seq}, in event order, at most {@code limit}. */
    public List<ChatMessage> messagesAnnouncedAfter(ChatId chatId, long seq, int limit) {
        return messages.announcedAfter(chatId, seq, limit);
    }

    /** Whether the chat holds the message: a reply whose node died may have been stored before it did. */
    public boolean hasMessage(ChatId chatId, UUID messageId) {
        return messages.exists(chatId, messageId);
    }

    /** The chat's message with this id, if it holds one. */
    public Optional<ChatMessage> message(ChatId chatId, UUID messageId) {
        return messages.byId(chatId, messageId);
    }

    /** The highest event {@code seq} a stored message of the chat carries, 0 when none does. */
    public long latestEventSeq(ChatId chatId) {
        return messages.latestEventSeq(chatId);
    }

    /** The chat's latest {@code count} messages, oldest first: the history a reply is generated from. */
    public List<ChatMessage> latestMessages(ChatId chatId, int count) {
        return messages.latest(chatId, count);
    }

    /**
     * Reserves the next {@code size} event sequence numbers of the chat: they are {@code (end - size, end]}, above
     * every number reserved before, on any node, before or after a restart.
     */
    @Transactional
    public long reserveEventSequence(ChatId chatId, int size) {
        return chats.reserveEventSequence(chatId, size);
    }
}
