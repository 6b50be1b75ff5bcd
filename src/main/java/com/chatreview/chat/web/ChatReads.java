package com.chatreview.chat.web;

import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.ChatMessage;
import com.chatreview.chat.MessagePage;
import com.chatreview.chat.json.ChatBodies.ChatBody;
import com.chatreview.chat.json.ChatBodies.MessageBody;
import com.chatreview.chat.json.ChatBodies.MessageList;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.TenantId;
import com.chatreview.web.EntityTags;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.WebRequest;

/**
 * Get-chat and a page of messages, the two hot reads, as both their ways in answer them: {@link HotChatReads} ahead
 * of the servlet container, {@link ChatController} for every request the hot path leaves to it. Each carries a
 * strong {@code ETag}; {@code If-None-Match} with the current tag is 304 (decisions: conditional reads), and then
 * the answer is {@code null}.
 */
@Component
class ChatReads {

    private final ChatManagement chats;

    ChatReads(ChatManagement chats) {
        this.chats = chats;
    }

    /**
     * How a read learns whether the client's copy is current: Spring's {@link WebRequest#checkNotModified}, or the
     * hot route's comparison of {@code If-None-Match}. Either keeps the tag for the {@code ETag} header.
     */
    interface Conditional {

        /** Whether the request sent {@code If-None-Match}. */
        boolean asked();

        /** Keeps the current tag; whether the client's copy has it. */
        boolean notModified(String tag);

        static Conditional of(WebRequest request) {
            return new Conditional() {
                @Override
                public boolean asked() {
                    return request.getHeader(HttpHeaders.IF_NONE_MATCH) != null;
                }

                @Override
                public boolean notModified(String tag) {
                    return request.checkNotModified(tag);
                }
            };
        }
    }

    /** The chat's body, or {@code null} when the request's tag is current (304). */
    @Nullable
    ChatBody chat(TenantId tenantId, ChatId chatId, Conditional conditional) {
        Chat chat = chats.chat(tenantId, chatId);
        if (conditional.notModified(EntityTags.of(chat))) {
            return null;
        }
        return ChatBody.full(chat);
    }

    /** The page's body, or {@code null} when the request's tag is current (304, and the page is not read). */
    @Nullable
    MessageList messages(TenantId tenantId, ChatId chatId, PageRequest page, Conditional conditional) {
        if (conditional.asked()) {
            Chat chat = chats.chat(tenantId, chatId);
            if (conditional.notModified(pageTag(chatId, chat.messageCount(), chat.updatedAt(), page))) {
                // messages are added, or emptied by an erasure (which changes the chat's updated_at): the chat's
                // count and updated_at name the page, which is not read
                return null;
            }
        }
        MessagePage read = chats.messagePage(tenantId, chatId, page);
        Page<ChatMessage> found = read.page();
        conditional.notModified(pageTag(chatId, found.total(), read.chatUpdatedAt(), page));
        return new MessageList(
                found.items().stream().map(MessageBody::of).toList(),
                found.total(),
                page.offset(),
                page.limit(),
                page.hasMore(found.total(), found.items().size()));
    }

    /** A page of messages as the query names it: the default 50, oldest first. */
    static PageRequest page(@Nullable String offset, @Nullable String limit, @Nullable String order) {
        return PageRequest.parse(offset, limit, order, 50, true);
    }

    private static String pageTag(ChatId chatId, long total, Instant chatUpdatedAt, PageRequest page) {
        return EntityTags.of(chatId, total, chatUpdatedAt, page.offset(), page.limit(), page.ascending());
    }
}
