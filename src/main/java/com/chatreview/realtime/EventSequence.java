package com.chatreview.realtime;

import com.chatreview.chat.ChatManagement;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code seq} of a chat's events. Numbers come from blocks reserved in the database, so they keep increasing
 * across restarts while a streamed token costs no database write. Only the chat's reply lane takes numbers, so
 * the events of a chat are numbered in the order they are sent.
 */
class EventSequence {

    static final int BLOCK = 1000;

    private final ChatManagement chats;
    private final Map<UUID, Block> blocks = new ConcurrentHashMap<>();

    EventSequence(ChatManagement chats) {
        this.chats = chats;
    }

    private static final class Block {
        long next;
        long end;
    }

    long next(UUID chatId) {
        Block block = blocks.computeIfAbsent(chatId, chat -> new Block());
        synchronized (block) {
            if (block.next == 0 || block.next > block.end) {
                block.end = chats.reserveEventSequence(chatId, BLOCK);
                block.next = block.end - BLOCK + 1;
            }
            return block.next++;
        }
    }

    /** The latest seq this node gave an event of the chat, or the latest a stored message carries. */
    long latest(UUID chatId, long latestStored) {
        Block block = blocks.get(chatId);
        if (block == null) {
            return latestStored;
        }
        synchronized (block) {
            return block.next == 0 ? latestStored : Math.max(latestStored, block.next - 1);
        }
    }

    void forget(UUID chatId) {
        blocks.remove(chatId);
    }
}
