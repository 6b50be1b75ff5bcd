package com.chatreview.conversation;

import com.chatreview.assistant.AssistantFailure;
import com.chatreview.assistant.AssistantReply;
import com.chatreview.assistant.TokenSink;
import com.chatreview.chat.ChatErrors.ChatNotFound;
import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.ChatMessage;
import com.chatreview.chat.NewMessage;
import com.chatreview.conversation.cluster.ChatEventFanOut;
import com.chatreview.conversation.cluster.StreamsInProgress;
import com.chatreview.database.DatabaseReachability;
import com.chatreview.tenancy.TenantId;
import com.chatreview.usage.UsageKind;
import com.chatreview.usage.UsageMeter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An answer being streamed to every connection on its chat: its {@code message_stream_started} is out, each
 * token takes the chat's next {@code seq}; it ends stored ({@code message_stream_ended}) or with an
 * {@code error} event naming its message id.
 */
final class ReplyStream implements TokenSink {

    private static final Logger log = LoggerFactory.getLogger(ReplyStream.class);

    private final Outlets outlets;
    private final TenantId tenantId;
    private final ChatId chatId;
    private final UUID questionId;
    private final String userId;
    private final UUID replyId;
    /** What the answer counts as; {@code null} when it is not the AI's work (a teacher's answer). */
    private final @Nullable UsageKind kind;

    private final BooleanSupplier takenOver;
    private final ConversationMetrics.@Nullable Reply measured;
    private long endSeq;
    /** The answer is whole and being stored: a failure now lost a reply the chat was streamed. */
    private boolean storing;

    private boolean over;

    ReplyStream(
            Outlets outlets,
            TenantId tenantId,
            ChatId chatId,
            UUID questionId,
            String userId,
            UUID replyId,
            @Nullable UsageKind kind,
            BooleanSupplier takenOver) {
        this.outlets = outlets;
        this.tenantId = tenantId;
        this.chatId = chatId;
        this.questionId = questionId;
        this.userId = userId;
        this.replyId = replyId;
        this.kind = kind;
        this.takenOver = takenOver;
        ChatEvent startedEvent = outlets.json()
                .sequenced(new ServerEvent.StreamStarted(
                        Instant.now(),
                        chatId,
                        userId,
                        replyId,
                        outlets.sequence().next(chatId)));
        outlets.streams().started(chatId, startedEvent);
        outlets.publish(chatId, startedEvent);
        this.measured = kind == null ? null : outlets.metrics().replyStarted(tenantId, kind);
    }

    UUID questionId() {
        return questionId;
    }

    ChatId chatId() {
        return chatId;
    }

    UUID replyId() {
        return replyId;
    }

    /** @throws ReplyTakenOver when another node answers this reply now */
    void requireOurs() {
        if (takenOver.getAsBoolean()) {
            throw new ReplyTakenOver();
        }
    }

    /** The next piece of the answer: the chat's next {@code seq}, to every connection on the chat. */
    @Override
    public void accept(String token) {
        requireOurs();
        if (measured != null) {
            measured.token();
        }
        ChatEvent tokenEvent = outlets.json()
                .sequenced(new ServerEvent.StreamToken(
                        Instant.now(),
                        chatId,
                        replyId,
                        token,
                        outlets.sequence().next(chatId)));
        outlets.streams().token(chatId, tokenEvent);
        outlets.publish(chatId, tokenEvent);
    }

    /**
     * A token takes a number already reserved and goes to this node's memory and connections only, so the provider's
     * I/O thread may hand it on itself; a cluster's token waits for Redis, a new block of numbers for the database.
     */
    @Override
    public boolean acceptsWithoutWaiting() {
        return outlets.fanOut().publishesWithoutWaiting() && outlets.sequence().hasNumberReady(chatId);
    }

    /** The last token is out: the stream's end takes its {@code seq} now, before anything else of the chat. */
    void beforeStoring() {
        storing = true;
        endSeq = outlets.sequence().next(chatId);
        requireOurs();
    }

    /**
     * Stores the answer and counts what it used, in the caller's transaction, so that whatever else the caller
     * records commits with it or not at all.
     *
     * @throws ChatNotFound when the chat was deleted meanwhile
     */
    ChatMessage store(AssistantReply reply) {
        NewMessage message = NewMessage.fromAssistant(reply.content(), metadata(reply, questionId, userId))
                .withId(replyId)
                .withEventSeq(endSeq);
        ChatMessage appended = outlets.chats().append(tenantId, chatId, message).message();
        if (kind == null) {
            return appended;
        }
        AssistantReply.Usage used = reply.usage();
        outlets.usage()
                .record(
                        tenantId,
                        chatId.value(),
                        appended.id(),
                        userId,
                        kind,
                        used.promptTokens(),
                        used.completionTokens(),
                        used.totalTokens(),
                        used.estimated());
        return appended;
    }

    /** The stored answer is committed: the chat gets the whole of it. */
    void ended(ChatMessage stored, AssistantReply reply) {
        over = true;
        outlets.streams().ended(chatId);
        if (measured != null) {
            measured.finished(reply.usage().completionTokens());
        }
        outlets.publish(chatId, Replies.streamEnded(stored, userId, Instant.now(), endSeq));
    }

    /**
     * The answer will not be stored: the stream is no longer in progress, and the chat learns why (unless it
     * was deleted, or another node took the reply over and tells it). Only the first failure counts.
     */
    private void failedAs(String reason) {
        if (measured != null) {
            measured.failed(reason);
        }
    }

    void failed(RuntimeException cause) {
        if (over) {
            return;
        }
        over = true;
        switch (cause) {
            case AssistantFailure failure -> {
                outlets.streams().ended(chatId);
                failedAs("ai_error");
                outlets.metrics().providerFailed(failure);
                log.warn("The assistant failed to answer in chat {}: {}", chatId, failure.getMessage());
                outlets.publish(
                        chatId,
                        ErrorCode.AI_ERROR
                                .event(
                                        "The AI provider failed: " + failure.getMessage(),
                                        Map.of("message_id", replyId.toString()))
                                .inChat(chatId, outlets.sequence().next(chatId)));
            }
            case ReplyTakenOver another ->
                // the node that took it over tells the chat, and ends what this one streamed
                failedAs("taken_over");
            case ChatNotFound gone -> {
                outlets.streams().ended(chatId);
                failedAs("chat_deleted");
            }
            default -> {
                // storing the answer failed (the database, say), or reading what it is to answer from: the stream
                // must not stay "in progress"
                outlets.streams().ended(chatId);
                boolean outage = DatabaseReachability.isOutage(cause);
                failedAs(outage ? "database" : "internal");
                String what = storing ? "the reply could not be stored" : "no reply could be written";
                if (outage) {
                    log.warn("In chat {} {}: {}", chatId, what, cause.toString());
                } else {
                    log.error("In chat {} {}", chatId, what, cause);
                }
                outlets.publish(
                        chatId,
                        (outage
                                        ? ErrorCode.SERVICE_UNAVAILABLE.event(
                                                DatabaseReachability.whyUnavailable(cause) + "; " + what
                                                        + ", the question is stored",
                                                Map.of(
                                                        "message_id",
                                                        replyId.toString(),
                                                        "retry_after_ms",
                                                        DatabaseReachability.RETRY_AFTER.toMillis()))
                                        : ErrorCode.INTERNAL_ERROR.event(
                                                Character.toUpperCase(what.charAt(0))
                                                        + what.substring(1)
                                                        + "; the question is stored",
                                                Map.of("message_id", replyId.toString())))
                                .inChat(chatId, outlets.sequence().next(chatId)));
            }
        }
    }

    /** What every stream of a node writes to: the chat's events, their numbers, the stored messages, the counts. */
    record Outlets(
            EventJson json,
            EventSequence sequence,
            StreamsInProgress streams,
            ChatEventFanOut fanOut,
            ConversationMetrics metrics,
            ChatManagement chats,
            UsageMeter usage) {

        void publish(ChatId chatId, ServerEvent event) {
            publish(chatId, json.sequenced(event));
        }

        void publish(ChatId chatId, ChatEvent event) {
            sequence.published(chatId, event.seq());
            fanOut.publish(chatId, event);
        }
    }

    private static Map<String, Object> metadata(AssistantReply reply, UUID questionId, String userId) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("provider", reply.provider());
        metadata.put("model", reply.model());
        metadata.put("finish_reason", reply.finishReason());
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", reply.usage().promptTokens());
        usage.put("completion_tokens", reply.usage().completionTokens());
        usage.put("total_tokens", reply.usage().totalTokens());
        usage.put("estimated", reply.usage().estimated());
        metadata.put("usage", usage);
        metadata.put("in_reply_to", questionId.toString());
        metadata.put(Replies.ANSWERED_USER, userId);
        return metadata;
    }

    /** Another node took the reply over while this one was answering it (this node stalled past its lease). */
    static final class ReplyTakenOver extends RuntimeException {
        ReplyTakenOver() {
            super(null, null, false, false);
        }
    }
}
