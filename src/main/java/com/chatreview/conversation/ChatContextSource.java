package com.chatreview.conversation;

import com.chatreview.assistant.Conversation.ContextDocument;
import com.chatreview.chat.Chat;
import com.chatreview.grading.Verdict;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the assistant should know about a chat beyond its messages (for a review chat: the homework's task and
 * restrictions, the student's files and the review's verdict). Implemented by the modules that own such material.
 */
public interface ChatContextSource {

    /** The chat's context; {@link ChatContext#NONE} when this source knows nothing of the chat. */
    ChatContext contextOf(Chat chat);

    /**
     * @param documents material the chat is about, by name
     * @param review the verdict of the review the chat is about, or {@code null}
     */
    record ChatContext(
            List<ContextDocument> documents, @Nullable Verdict review) {

        public static final ChatContext NONE = new ChatContext(List.of(), null);

        public ChatContext {
            documents = List.copyOf(documents);
        }
    }
}
