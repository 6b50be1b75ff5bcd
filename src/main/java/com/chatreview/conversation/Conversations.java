package com.chatreview.conversation;

import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatMessage;
import com.chatreview.chat.ChatsById;
import com.chatreview.chat.SenderRole;
import com.chatreview.conversation.cluster.ChatEventFanOut;
import com.chatreview.conversation.cluster.OwedReplies;
import com.chatreview.conversation.cluster.ReplyQueue;
import com.chatreview.conversation.cluster.StreamsInProgress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a client's connection asks of the conversation: a question answered in its chat's lane, where a listener
 * starts and what it missed, and the lanes' state for a shutdown.
 */
@Component
public class Conversations {

    private static final int REPLAY_BATCH = 100;

    private final ReplyQueue queue;
    private final Replies replies;
    private final ChatEventFanOut fanOut;
    private final StreamsInProgress streams;
    private final EventSequence sequence;
    private final OwedReplies owed;
    private final ChatsById chats;
    private final EventJson json;
    private final JsonMapper mapper;

    Conversations(
            ReplyQueue queue,
            Replies replies,
            ChatEventFanOut fanOut,
            StreamsInProgress streams,
            EventSequence sequence,
            OwedReplies owed,
            ChatsById chats,
            EventJson json,
            JsonMapper mapper) {
        this.queue = queue;
        this.replies = replies;
        this.fanOut = fanOut;
        this.streams = streams;
        this.sequence = sequence;
        this.owed = owed;
        this.chats = chats;
        this.json = json;
        this.mapper = mapper;
    }

    /**
     * Queues the question for its turn in the chat's lane, unless {@code maxWaiting} questions of the chat already
     * wait (on every node, in a cluster): a client cannot pile up replies nobody may be there to read. A question
     * still waiting when its asker left is dropped, neither stored nor paid for (the client sends it again).
     *
     * @return false when refused: nothing was queued
     */
    public boolean ask(Asker asker, Question question, int maxWaiting) {
        return queue.offer(asker.chatId(), maxWaiting, () -> {
            if (asker.present()) {
                replies.answer(asker, question);
            }
        });
    }

    /**
     * Where a listener just registered on the chat starts (call it after registering: whatever the fan-out hands
     * the listener from then on, it gets live).
     *
     * @param latestStoredSeq the {@code seq} of the chat's latest stored message, as the caller read it
     */
    public Watch watch(ChatId chatId, long latestStoredSeq) {
        long published = fanOut.watch(chatId);
        List<ChatEvent> replyInProgress = streams.of(chatId);
        long lastSeq = Math.max(
                Math.max(
                        published,
                        replyInProgress.isEmpty()
                                ? 0
                                : replyInProgress.getLast().seq()),
                sequence.latest(chatId, latestStoredSeq));
        return new Watch(lastSeq, replyInProgress);
    }

    /**
     * @param lastSeq the {@code seq} of the chat's latest event: a listener that missed nothing starts after it
     * @param replyInProgress the events of the reply being generated, for a listener resuming mid-reply
     */
    public record Watch(long lastSeq, List<ChatEvent> replyInProgress) {}

    /**
     * Hands {@code send} the final event of every message stored after {@code seq}, read a batch at a time, as fast
     * as it takes them: a resume from 0 of a long chat holds one batch in memory, not the chat.
     *
     * @return false when {@code send} refused one (the listener went away)
     */
    public boolean replayStoredAfter(ChatId chatId, long seq, Predicate<ChatEvent> send) {
        long after = seq;
        while (true) {
            List<ChatMessage> batch = chats.messagesAnnouncedAfter(chatId, after, REPLAY_BATCH);
            for (ChatMessage message : batch) {
                // read where event_seq > after, so each has its seq
                long announced = Objects.requireNonNull(message.eventSeq(), "an announced message has its seq");
                String userId = String.valueOf(userOf(message));
                ServerEvent event = message.senderRole() == SenderRole.USER
                        ? Replies.messageReceived(message, userId, message.createdAt(), announced)
                        : Replies.streamEnded(message, userId, message.createdAt(), announced);
                if (!send.test(json.sequenced(event))) {
                    return false;
                }
                after = announced;
            }
            if (batch.size() < REPLAY_BATCH) {
                return true;
            }
        }
    }

    /** Who sent a user message, or whose message an assistant message answers. */
    private @Nullable Object userOf(ChatMessage message) {
        Map<?, ?> metadata = mapper.readValue(message.metadata(), Map.class);
        return metadata.get(message.senderRole() == SenderRole.USER ? "user_id" : Replies.ANSWERED_USER);
    }

    /** Waits until no chat has a reply running or waiting, at most {@code timeout}; true when all is done. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        return queue.awaitIdle(timeout);
    }

    /** Whether another node answers this node's replies when it stops: false on a single node. */
    public boolean othersTakeOver() {
        return owed.othersTakeOver();
    }

    /** This node is stopping with replies unfinished: another node takes each over at once. */
    public void handOver() {
        owed.handOver();
    }
}
