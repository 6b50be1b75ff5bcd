package com.chatreview.conversation;

import com.chatreview.chat.ChatId;
import com.chatreview.tenancy.TenantId;

/**
 * Who asked a question of a chat: a client's connection, as the conversation sees it. What concerns the asker
 * alone (a refusal, the acknowledgement of a repeat) is told to it, not to the chat.
 */
public interface Asker {

    TenantId tenantId();

    ChatId chatId();

    String userId();

    /** Whether the asker is still there: a question still waiting when it left is dropped, never stored. */
    boolean present();

    /** An event for the asker alone. */
    void tell(ServerEvent event);

    /** The question is answered with this error alone: nothing of it was stored. */
    void refuse(ServerEvent.Error error);
}
