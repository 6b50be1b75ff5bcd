package com.chatreview.chat;

import com.chatreview.chat.ChatErrors.ChatDeletionBlocked;
import com.chatreview.chat.ChatErrors.ChatNotFound;
import com.chatreview.chat.ChatErrors.UserHasNoChats;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/** Everything the service does with chats and their messages. Every call names the tenant it acts for. */
@Service
public class ChatManagement {

    static final String DEFAULT_TITLE = "New chat";

    private final Chats chats;
    private final Messages messages;
    private final Users users;
    private final List<ChatDeletionGuard> deletionGuards;
    private final JsonMapper json;
    private final TransactionTemplate transaction;
    private final ApplicationEventPublisher events;

    ChatManagement(
            Chats chats,
            Messages messages,
            Users users,
            List<ChatDeletionGuard> deletionGuards,
            JsonMapper json,
            TransactionTemplate transaction,
            ApplicationEventPublisher events) {
        this.transaction = transaction;
        this.events = events;
        this.chats = chats;
        this.messages = messages;
        this.users = users;
        this.deletionGuards = deletionGuards;
        this.json = json;
    }

    /** Creates the chat, and its user if the user is new. */
    @Transactional
    public Chat create(UUID tenantId, NewChat request) {
        Instant now = now();
        users.ensure(tenantId, request.userId(), now);
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("metadata", request.metadata());
        config.putAll(request.settings());
        boolean titleGiven = request.title() != null && !request.title().isBlank();
        Chat chat = new Chat(
                UUID.randomUUID(),
                tenantId,
                request.userId(),
                titleGiven ? request.title().strip() : DEFAULT_TITLE,
                json.writeValueAsString(config),
                ChatStatus.ACTIVE,
                now,
                now,
                null,
                0);
        chats.insert(chat, titleGiven);
        return chat;
    }

    /**
     * A connection of the user opens on the tenant's chat: the chat, its latest event seq, and the user created if
     * new, in one database round trip; empty when the tenant has no such chat (and nothing is created).
     */
    public Optional<ChatEntry> enter(UUID tenantId, UUID chatId, String userId) {
        return chats.enter(tenantId, chatId, userId, now());
    }

    /** The chat page's connection, as the chat's owner (who exists with the chat): one round trip. */
    public Optional<ChatEntry> enterByLink(UUID chatId) {
        return chats.enterByLink(chatId);
    }

    public Optional<Chat> find(UUID tenantId, UUID chatId) {
        return chats.find(tenantId, chatId);
    }

    /**
     * The chat with this id, of whichever tenant: for the chat page, whose link (a random UUID) is the credential
     * (decisions §9). Every other caller names its tenant with {@link #find(UUID, UUID)}.
     */
    public Optional<Chat> findByLink(UUID chatId) {
        return chats.findAnyTenant(chatId);
    }

    public Chat chat(UUID tenantId, UUID chatId) {
        return find(tenantId, chatId).orElseThrow(() -> new ChatNotFound(chatId));
    }

    /** A page of the user's chats, by creation time then id; 404 when the user has none at all. */
    @Transactional(readOnly = true)
    public Page<Chat> chatsOf(UUID tenantId, String userId, PageRequest page) {
        long total = chats.countOfUser(tenantId, userId);
        if (total == 0) {
            throw new UserHasNoChats(userId);
        }
        return new Page<>(chats.pageOfUser(tenantId, userId, page), total);
    }

    /** A page of the chat's messages in the order they were stored (or the reverse). */
    public Page<ChatMessage> messages(UUID tenantId, UUID chatId, PageRequest page) {
        return messages.page(tenantId, chatId, page).orElseThrow(() -> new ChatNotFound(chatId));
    }

    /** Messages announced by an event after {@code seq}, in event order, at most {@code limit}. */
    public List<ChatMessage> messagesAnnouncedAfter(UUID chatId, long seq, int limit) {
        return messages.announcedAfter(chatId, seq, limit);
    }

    /** Whether the chat holds the message: a reply whose node died may have been stored before it did. */
    public boolean hasMessage(UUID chatId, UUID messageId) {
        return messages.exists(chatId, messageId);
    }

    /** The highest event {@code seq} a stored message of the chat carries, 0 when none does. */
    public long latestEventSeq(UUID chatId) {
        return messages.latestEventSeq(chatId);
    }

    /** The chat's latest {@code count} messages, oldest first: the history a reply is generated from. */
    public List<ChatMessage> latestMessages(UUID chatId, int count) {
        return messages.latest(chatId, count);
    }

    /**
     * Reserves the next {@code size} event sequence numbers of the chat: they are {@code (end - size, end]}, above
     * every number reserved before, on any node, before or after a restart.
     */
    @Transactional
    public long reserveEventSequence(UUID chatId, int size) {
        return chats.reserveEventSequence(chatId, size);
    }

    @Transactional
    public Chat update(UUID tenantId, UUID chatId, ChatChanges changes) {
        chat(tenantId, chatId);
        String metadata = changes.metadata() == null ? null : json.writeValueAsString(changes.metadata());
        chats.update(chatId, changes, metadata, now());
        return chat(tenantId, chatId);
    }

    /**
     * Deletes the chat and all its messages in one transaction, unless something holds it open.
     *
     * @return when it was deleted
     */
    @Transactional
    public Instant delete(UUID tenantId, UUID chatId) {
        chat(tenantId, chatId);
        for (ChatDeletionGuard guard : deletionGuards) {
            Optional<String> reason = guard.blockingReason(chatId);
            if (reason.isPresent()) {
                throw new ChatDeletionBlocked(chatId, reason.get());
            }
        }
        if (!chats.delete(tenantId, chatId)) {
            throw new ChatNotFound(chatId);
        }
        events.publishEvent(new ChatChanged.Deleted(tenantId, chatId));
        return now();
    }

    /**
     * Stores a message at the chat's next position. A message whose {@code clientMessageId} the chat already
     * holds is not stored again: the original comes back, marked duplicate. The first user message of a chat
     * whose title the service chose gives the chat its title.
     */
    public AppendedMessage append(UUID tenantId, UUID chatId, NewMessage message) {
        if (message.clientMessageId() != null) {
            Optional<ChatMessage> original = messages.byClientMessageId(chatId, message.clientMessageId());
            if (original.isPresent()) {
                return new AppendedMessage(original.get(), true);
            }
        }
        try {
            return new AppendedMessage(transaction.execute(status -> store(tenantId, chatId, message)), false);
        } catch (DuplicateKeyException raced) {
            // the same client_message_id arrived twice at once; the other one was stored
            return messages.byClientMessageId(chatId, message.clientMessageId())
                    .map(original -> new AppendedMessage(original, true))
                    .orElseThrow(() -> raced);
        }
    }

    private ChatMessage store(UUID tenantId, UUID chatId, NewMessage message) {
        Instant now = now();
        int position = chats.nextPosition(tenantId, chatId, now).orElseThrow(() -> new ChatNotFound(chatId));
        ChatMessage stored = new ChatMessage(
                message.id() != null ? message.id() : UUID.randomUUID(),
                chatId,
                position,
                message.role(),
                message.content(),
                message.mediaType(),
                message.mediaUrl(),
                json.writeValueAsString(message.metadata()),
                message.clientMessageId(),
                now,
                message.eventSeq());
        messages.insert(stored);
        if (message.role() == SenderRole.USER && !messages.anyFromUser(chatId, position)) {
            chats.titleFromFirstMessage(chatId, Titles.fromMessage(message.content()), now);
        }
        events.publishEvent(new ChatChanged.MessageStored(tenantId, chatId, stored));
        return stored;
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
