package com.chatreview.realtime;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.Asker;
import com.chatreview.conversation.ErrorCode;
import com.chatreview.conversation.ServerEvent;
import com.chatreview.tenancy.TenantId;

/** A connection as the asker of its frames' questions: a refusal is counted by its reason and told to it alone. */
record ConnectionAsker(Connection connection, RealtimeMetrics metrics) implements Asker {

    @Override
    public TenantId tenantId() {
        return connection.tenantId;
    }

    @Override
    public ChatId chatId() {
        return connection.chatId;
    }

    @Override
    public String userId() {
        return connection.userId;
    }

    @Override
    public boolean present() {
        return connection.open();
    }

    @Override
    public void tell(ServerEvent event) {
        connection.sendDirect(event);
    }

    @Override
    public void refuse(ServerEvent.Error error) {
        metrics.frameRefused(connection.tenantId, ErrorCode.valueOf(error.errorCode()));
        connection.sendDirect(error);
    }
}
