package com.chatreview.realtime;

import com.chatreview.chat.ChatId;
import java.util.List;
import java.util.UUID;
import org.springframework.context.ApplicationContext;
import org.springframework.web.socket.CloseStatus;

/** For tests of other packages: the connections this node holds open on a chat, and dropping them. */
public final class LiveConnections {

    private LiveConnections() {}

    /** How many connections are open on the chat. */
    public static int count(ApplicationContext context, UUID chatId) {
        return (int) context.getBean(ConnectionRegistry.class).onChat(ChatId.of(chatId)).stream()
                .filter(Connection::open)
                .count();
    }

    /** Closes every connection on the chat from the server's side, as a network drop or a restart would. */
    public static int drop(ApplicationContext context, UUID chatId) {
        List<Connection> open = context.getBean(ConnectionRegistry.class).onChat(ChatId.of(chatId));
        open.forEach(connection -> connection.close(CloseStatus.SERVICE_RESTARTED));
        return open.size();
    }
}
