package com.chatreview.conversation;

import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatsById;
import com.chatreview.database.PatientWrites;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * The {@code seq} of a chat's events. Numbers come from blocks reserved in the database, so they keep increasing
 * across restarts while a streamed token costs no database write. Only the chat's reply lane takes numbers, so
 * the events of a chat are numbered in the order they are sent.
 */
@Component
class EventSequence {

    static final int BLOCK = 1000;

    private final ChatsById chats;
    private final PatientWrites writes;
    private final Duration midReplyPatience;
    private final Duration frameStartPatience;
    /** Chats quiet for an hour are forgotten; their next frame starts a fresh block anyway. */
    private final Cache<ChatId, Block> blocks =
            Caffeine.newBuilder().expireAfterAccess(Duration.ofHours(1)).build();

    EventSequence(ChatsById chats, PatientWrites writes, ConversationSettings settings) {
        this.chats = chats;
        this.writes = writes;
        // a block is reserved mid-reply too (a long one): the reply waits for it like for its storing
        this.midReplyPatience = settings.replyStorePatience();
        this.frameStartPatience = settings.messageStorePatience();
    }

    /** The end of the chat's next block of numbers, reserved in the database even when its pool is busy. */
    private long reserveBlock(ChatId chatId, Duration patience) {
        return writes.write(
                patience, PatientWrites.Waits.BUSY_POOL, again -> chats.reserveEventSequence(chatId, BLOCK));
    }

    private static final class Block {
        long next;
        long end;
        long published;
    }

    long next(ChatId chatId) {
        Block block = blocks.get(chatId, chat -> new Block());
        synchronized (block) {
            if (block.next != 0 && block.next <= block.end) {
                return block.next++;
            }
        }
        // reserved outside the block's lock: a busy pool's wait must not hold up the chat's other callers
        long end = reserveBlock(chatId, midReplyPatience);
        synchronized (block) {
            if (block.next == 0 || block.next > block.end) {
                block.end = end;
                block.next = end - BLOCK + 1;
            }
            return block.next++;
        }
    }

    /**
     * Whether {@link #next} has a number for the chat without reserving a block first. Only the chat's reply lane
     * takes numbers, so the answer holds until its next call.
     */
    boolean hasNumberReady(ChatId chatId) {
        Block block = blocks.getIfPresent(chatId);
        if (block == null) {
            return false;
        }
        synchronized (block) {
            return block.next != 0 && block.next <= block.end;
        }
    }

    /**
     * Starts a fresh block for the work of one frame, taken from the database before anything streams: the
     * frame's tokens then cost no database write, and whichever node answers the chat's next frame numbers its
     * events above these (the chat's frames are answered one at a time, cluster-wide).
     */
    void freshBlock(ChatId chatId) {
        Block block = blocks.get(chatId, chat -> new Block());
        long end = reserveBlock(chatId, frameStartPatience);
        synchronized (block) {
            block.end = end;
            block.next = end - BLOCK + 1;
        }
    }

    /**
     * The chat's fresh block was reserved by the write that stored the frame's first event, numbered {@code first}
     * (a question, see {@link com.chatreview.chat.NewMessage#withFreshEventSeqBlock}): the frame goes on from the
     * number after it, as after {@link #freshBlock}.
     */
    void blockStartedBy(ChatId chatId, long first) {
        Block block = blocks.get(chatId, chat -> new Block());
        synchronized (block) {
            block.end = first + BLOCK - 1;
            block.next = first + 1;
        }
    }

    /** Records that the event numbered {@code seq} is being sent to the chat's connections. */
    void published(ChatId chatId, long seq) {
        Block block = blocks.get(chatId, chat -> new Block());
        synchronized (block) {
            block.published = Math.max(block.published, seq);
        }
    }

    /**
     * The latest seq of an event this node has sent to the chat's connections, or the latest a stored message
     * carries. A number taken but not yet sent does not count: a connection opened meanwhile receives that event.
     */
    long latest(ChatId chatId, long latestStored) {
        Block block = blocks.getIfPresent(chatId);
        if (block == null) {
            return latestStored;
        }
        synchronized (block) {
            return Math.max(latestStored, block.published);
        }
    }
}
