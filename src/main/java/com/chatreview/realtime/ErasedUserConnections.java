package com.chatreview.realtime;

import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.privacy.ErasureTally;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.tenancy.TenantId;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.socket.CloseStatus;

/**
 * The first part of a user's erasure: the user's connections (on any chat, the chat page's included) and every
 * connection on one of the user's chats (a teacher's, say) are closed with 1008, on this node and, in a cluster, on
 * every other ({@link ErasedUserAnnouncements}). A chat with a connection still open is not erased: the erasure runs
 * again a little later, by when the other nodes have closed theirs.
 */
@Component
@Order(10)
class ErasedUserConnections implements UserDataEraser {

    static final CloseStatus ERASED = CloseStatus.POLICY_VIOLATION.withReason("USER_ERASED");

    /** How long the erasure waits for the connections it closed to be gone. */
    static final Duration CLOSING = Duration.ofSeconds(3);

    private final ConnectionRegistry connections;
    private final ChatManagement chats;
    private final ErasedUserAnnouncements announcements;

    ErasedUserConnections(ConnectionRegistry connections, ChatManagement chats, ErasedUserAnnouncements announcements) {
        this.connections = connections;
        this.chats = chats;
        this.announcements = announcements;
    }

    @Override
    public void erase(TenantId tenantId, String userId, ErasureTally tally) {
        Set<ChatId> chatsOfUser = new HashSet<>();
        chats.forEachChatOf(tenantId, userId, chat -> chatsOfUser.add(chat.id()));
        ErasedUser erased = new ErasedUser(tenantId, userId, Set.copyOf(chatsOfUser));
        closeHere(erased);
        announcements.announce(erased);
        awaitClosed(chatsOfUser);
    }

    /**
     * Waits a moment for the closes to complete, here and on the other nodes, so that the chats can be erased in this
     * run; past {@link #CLOSING}, the erasure finds a chat still open and runs again later.
     */
    private void awaitClosed(Set<ChatId> chatsOfUser) {
        long deadline = System.nanoTime() + CLOSING.toNanos();
        while (chatsOfUser.stream().anyMatch(connections::anyOpen) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Closes this node's connections of the erased user and on their chats. */
    void closeHere(ErasedUser erased) {
        for (Connection connection : connections.all()) {
            if (connection.tenantId.equals(erased.tenantId())
                    && (connection.userId.equals(erased.userId())
                            || erased.chats().contains(connection.chatId))) {
                connection.close(ERASED);
            }
        }
    }

    /** A user being erased: whose connections, and which chats', close. */
    record ErasedUser(TenantId tenantId, String userId, Set<ChatId> chats) {}
}
