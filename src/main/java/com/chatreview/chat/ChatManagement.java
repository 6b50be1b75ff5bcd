package com.chatreview.chat;

import com.chatreview.chat.ChatErrors.ChatDeletionBlocked;
import com.chatreview.chat.ChatErrors.ChatNotFound;
import com.chatreview.chat.ChatErrors.UserHasNoChats;
import com.chatreview.database.Sql;
import com.chatreview.kernel.Batches;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.TenantId;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Everything the service does with chats and their messages for a tenant: every call names the tenant it acts for
 * ({@link TenantId}). The service's own access to a chat by its id alone (the chat page's link, the realtime relay)
 * is {@link ChatsById}.
 */
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

    private final Clock clock;

    ChatManagement(
            Chats chats,
            Messages messages,
            Users users,
            List<ChatDeletionGuard> deletionGuards,
            JsonMapper json,
            TransactionTemplate transaction,
            ApplicationEventPublisher events,
            Clock clock) {
        this.clock = clock;
        this.transaction = transaction;
        this.events = events;
        this.chats = chats;
        this.messages = messages;
        this.users = users;
        this.deletionGuards = deletionGuards;
        this.json = json;
    }

    /**
     * The most a chat's {@code metadata} may hold, as JSON (docs/api.md, Homework): every listed chat carries it, so that no
     * list answer grows without bound.
     */
    public static final int MAX_METADATA_BYTES = 16 * 1024;

    /** How many chats or messages are read at once by the {@code forEach} methods. */
    static final int BATCH = 500;

    /** Creates the chat, and its user if the user is new. */
    @Transactional
    public Chat create(TenantId tenantId, NewChat request) {
        requireBounded(request.metadata());
        Instant now = now();
        users.ensure(tenantId.value(), request.userId(), now);
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("metadata", request.metadata());
        config.putAll(request.settings());
        boolean titleGiven = request.title() != null && !request.title().isBlank();
        Chat chat = new Chat(
                ChatId.random(),
                tenantId,
                request.userId(),
                titleGiven
                        ? Objects.requireNonNull(request.title(), "a given title")
                                .strip()
                        : DEFAULT_TITLE,
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
    public Optional<ChatEntry> enter(TenantId tenantId, ChatId chatId, String userId) {
        return chats.enter(tenantId.value(), chatId, userId, now());
    }

    public Optional<Chat> find(TenantId tenantId, ChatId chatId) {
        return chats.find(tenantId.value(), chatId);
    }

    public Chat chat(TenantId tenantId, ChatId chatId) {
        return find(tenantId, chatId).orElseThrow(() -> new ChatNotFound(chatId));
    }

    /** A page of the user's chats, by creation time then id; 404 when the user has none at all. */
    @Transactional(readOnly = true)
    public Page<Chat> chatsOf(TenantId tenantId, String userId, PageRequest page) {
        long total = chats.countOfUser(tenantId.value(), userId);
        if (total == 0) {
            throw new UserHasNoChats(userId);
        }
        return new Page<>(chats.pageOfUser(tenantId.value(), userId, page), total);
    }

    /** When the tenant's user was first seen (a chat made for them, a connection of theirs); empty if never. */
    public Optional<Instant> userFirstSeen(TenantId tenantId, String userId) {
        return users.firstSeen(tenantId.value(), userId);
    }

    /**
     * Hands over each of the user's chats, oldest first, reading {@value #BATCH} at a time: however many there are,
     * at most that many are in memory, and no connection is held while {@code each} runs (a slow reader of an
     * export holds none).
     */
    public void forEachChatOf(TenantId tenantId, String userId, Consumer<Chat> each) {
        Batches.forEach(BATCH, last -> chats.ofUserAfter(tenantId.value(), userId, last, BATCH), each);
    }

    /**
     * Hands over each of the tenant's chats whose last message (or creation) is before {@code cutoff}, but for the
     * review chats of submissions (they go with their submission), reading {@value #BATCH} at a time.
     */
    public void forEachChatInactiveBefore(TenantId tenantId, Instant cutoff, Consumer<Chat> each) {
        Batches.forEach(BATCH, last -> chats.inactiveBefore(tenantId.value(), cutoff, last, BATCH), each);
    }

    /** Hands over each message of the chat in the order they were stored, reading {@value #BATCH} at a time. */
    public void forEachMessage(ChatId chatId, Consumer<ChatMessage> each) {
        Batches.forEach(BATCH, last -> messages.after(chatId, last == null ? 0 : last.position(), BATCH), each);
    }

    /** A page of the chat's messages in the order they were stored (or the reverse). */
    public Page<ChatMessage> messages(TenantId tenantId, ChatId chatId, PageRequest page) {
        return messagePage(tenantId, chatId, page).page();
    }

    /** A page of the chat's messages with when the chat last changed (what a page's entity tag names). */
    public MessagePage messagePage(TenantId tenantId, ChatId chatId, PageRequest page) {
        return messages.page(tenantId.value(), chatId, page).orElseThrow(() -> new ChatNotFound(chatId));
    }

    @Transactional
    public Chat update(TenantId tenantId, ChatId chatId, ChatChanges changes) {
        requireBounded(changes.metadata());
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
    public Instant delete(TenantId tenantId, ChatId chatId) {
        chat(tenantId, chatId);
        for (ChatDeletionGuard guard : deletionGuards) {
            Optional<String> reason = guard.blockingReason(chatId);
            if (reason.isPresent()) {
                throw new ChatDeletionBlocked(chatId, reason.get());
            }
        }
        if (!chats.delete(tenantId.value(), chatId)) {
            throw new ChatNotFound(chatId);
        }
        events.publishEvent(new ChatChanged.Deleted(tenantId, chatId));
        return now();
    }

    /**
     * Erases the chat and its messages, for a user's erasure, in the transaction under way (the erasure's unit),
     * unless something holds it open (then {@link ChatDeletionBlocked}): how many messages went; empty when the chat
     * was gone already. Tells {@code chat.deleted} like a delete.
     */
    @Transactional
    public OptionalInt erase(TenantId tenantId, ChatId chatId) {
        for (ChatDeletionGuard guard : deletionGuards) {
            Optional<String> reason = guard.blockingReason(chatId);
            if (reason.isPresent()) {
                throw new ChatDeletionBlocked(chatId, reason.get());
            }
        }
        OptionalInt messages = chats.deleteCounting(tenantId.value(), chatId);
        if (messages.isPresent()) {
            events.publishEvent(new ChatChanged.Deleted(tenantId, chatId));
        }
        return messages;
    }

    /**
     * Empties a batch of the user's messages in other users' chats (theirs sent there, and the replies to them), for
     * their erasure, in the transaction under way (the erasure's unit): which ones; none when none is left.
     */
    @Transactional
    public List<ErasedMessage> eraseMessagesElsewhere(TenantId tenantId, String userId, int batch) {
        List<ErasedMessage> found = messages.ofUserElsewhere(tenantId.value(), userId, batch);
        messages.empty(found.stream().map(ErasedMessage::messageId).toList());
        // the chats changed: their pages' entity tags must too, or a cache would keep the words
        chats.touch(found.stream().map(ErasedMessage::chatId).distinct().toList(), now());
        return found;
    }

    /** Whether the user has messages in other users' chats (an erasure finds them even with no chat of their own). */
    @Transactional(readOnly = true)
    public boolean hasMessagesElsewhere(TenantId tenantId, String userId) {
        return !messages.ofUserElsewhere(tenantId.value(), userId, 1).isEmpty();
    }

    /**
     * Forgets the user, the last part of their erasure: fails while a chat of theirs is left (one created while the
     * erasure ran), so that the erasure runs again.
     */
    @Transactional
    public void forgetUser(TenantId tenantId, String userId) {
        users.delete(tenantId.value(), userId);
    }

    /**
     * Stores a message at the chat's next position. A message whose {@code clientMessageId} the chat already
     * holds is not stored again: the original comes back, marked duplicate. The first user message of a chat
     * whose title the service chose gives the chat its title.
     */
    public AppendedMessage append(TenantId tenantId, ChatId chatId, NewMessage message) {
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

    private ChatMessage store(TenantId tenantId, ChatId chatId, NewMessage message) {
        Instant now = now();
        UUID id = message.id() != null ? message.id() : UUID.randomUUID();
        String metadata = json.writeValueAsString(message.metadata());
        Messages.Placed placed = messages.append(
                        tenantId.value(),
                        chatId,
                        id,
                        message,
                        metadata,
                        message.role() == SenderRole.USER ? Titles.fromMessage(message.content()) : null,
                        now)
                .orElseThrow(() -> new ChatNotFound(chatId));
        ChatMessage stored = new ChatMessage(
                id,
                chatId,
                placed.position(),
                message.role(),
                message.content(),
                message.mediaType(),
                message.mediaUrl(),
                metadata,
                message.clientMessageId(),
                now,
                placed.eventSeq());
        events.publishEvent(new ChatChanged.MessageStored(tenantId, chatId, stored));
        return stored;
    }

    private Instant now() {
        return Sql.now(clock);
    }

    private void requireBounded(@Nullable Object metadata) {
        if (metadata != null
                && json.writeValueAsString(metadata).getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                        > MAX_METADATA_BYTES) {
            throw InvalidInput.field(
                    "metadata",
                    "must be at most " + MAX_METADATA_BYTES + " bytes (16 KiB) as JSON",
                    "Keep metadata to a few keys; store large data in your own system and put its id here.");
        }
    }
}
