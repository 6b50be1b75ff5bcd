package com.chatreview.realtime;

import com.chatreview.assistant.Conversation.ContextDocument;
import com.chatreview.chat.Chat;
import java.util.List;

/**
 * What the assistant should know about a chat beyond its messages (for a review chat: the homework's task and
 * restrictions and the student's files). Implemented by the modules that own such material.
 */
public interface ChatContextSource {

    /** The chat's context documents; empty when this source knows nothing of the chat. */
    List<ContextDocument> documentsFor(Chat chat);
}
