package com.chatreview.conversation;

import com.chatreview.assistant.Assistant;
import com.chatreview.assistant.AssistantReply;
import com.chatreview.assistant.Conversation;
import com.chatreview.assistant.Conversation.ContextDocument;
import com.chatreview.assistant.Conversation.Turn;
import com.chatreview.assistant.WordByWord;
import com.chatreview.chat.AppendedMessage;
import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatErrors.ChatNotFound;
import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.ChatMessage;
import com.chatreview.chat.ChatsById;
import com.chatreview.chat.NewMessage;
import com.chatreview.chat.SenderRole;
import com.chatreview.conversation.cluster.ChatEventFanOut;
import com.chatreview.conversation.cluster.OwedReplies;
import com.chatreview.conversation.cluster.OwedReply;
import com.chatreview.conversation.cluster.StreamsInProgress;
import com.chatreview.database.DatabaseReachability;
import com.chatreview.database.PatientWrites;
import com.chatreview.database.PatientWrites.Waits;
import com.chatreview.grading.Verdict;
import com.chatreview.moderation.SafetyCategory;
import com.chatreview.moderation.SafetyFlags;
import com.chatreview.moderation.SafetyPolicy;
import com.chatreview.moderation.SafetyReply;
import com.chatreview.moderation.SafetyScreener;
import com.chatreview.moderation.SchoolAlerts;
import com.chatreview.moderation.Screening;
import com.chatreview.usage.BudgetSpent;
import com.chatreview.usage.UsageBudgets;
import com.chatreview.usage.UsageKind;
import com.chatreview.usage.UsageMeter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The work of one accepted frame, or of a turn the service starts, run in the chat's lane: store the user
 * message, announce it, stream the assistant's reply to every connection on the chat, store the reply, announce
 * it. Every event takes the chat's next {@code seq} here, in the order it is sent.
 */
@Component
class Replies {

    /** The key of an assistant message's metadata naming the user whose message it answers. */
    static final String ANSWERED_USER = "in_reply_to_user_id";

    private static final Logger log = LoggerFactory.getLogger(Replies.class);

    private final ChatManagement chats;
    private final ChatsById byId;
    private final Assistant assistant;
    private final ChatEventFanOut fanOut;
    private final EventSequence sequence;
    private final StreamsInProgress streams;
    private final OwedReplies owed;
    private final List<ChatContextSource> contextSources;
    private final int historyMessages;
    private final TransactionTemplate transaction;
    private final EventJson json;
    private final UsageMeter usage;
    private final UsageBudgets budgets;
    private final ConversationMetrics metrics;
    private final SafetyScreener screener;
    private final SafetyFlags flags;
    private final SafetyPolicy policy;
    private final SchoolAlerts alerts;
    private final ReplyStream.Outlets outlets;
    private final PatientWrites writes;
    private final Duration replyStorePatience;
    private final Duration messageStorePatience;

    Replies(
            ChatManagement chats,
            ChatsById byId,
            Assistant assistant,
            ChatEventFanOut fanOut,
            EventSequence sequence,
            StreamsInProgress streams,
            OwedReplies owed,
            List<ChatContextSource> contextSources,
            ConversationSettings settings,
            TransactionTemplate transaction,
            EventJson json,
            UsageMeter usage,
            UsageBudgets budgets,
            ConversationMetrics metrics,
            SafetyScreener screener,
            SafetyFlags flags,
            SafetyPolicy policy,
            SchoolAlerts alerts,
            PatientWrites writes) {
        this.writes = writes;
        this.replyStorePatience = settings.replyStorePatience();
        this.messageStorePatience = settings.messageStorePatience();
        this.policy = policy;
        this.alerts = alerts;
        this.screener = screener;
        this.flags = flags;
        this.chats = chats;
        this.byId = byId;
        this.assistant = assistant;
        this.fanOut = fanOut;
        this.sequence = sequence;
        this.streams = streams;
        this.owed = owed;
        this.contextSources = contextSources;
        this.historyMessages = settings.historyMessages();
        this.transaction = transaction;
        this.json = json;
        this.usage = usage;
        this.budgets = budgets;
        this.metrics = metrics;
        this.outlets = new ReplyStream.Outlets(json, sequence, streams, fanOut, metrics, chats, usage);
    }

    void answer(Asker sender, Question asked) {
        Chat chat;
        OwedReply question;
        try {
            chat = waitingForAConnection(() -> chats.find(sender.tenantId(), sender.chatId()))
                    .orElse(null);
            if (chat == null) {
                sender.refuse(ErrorCode.CHAT_NOT_FOUND.event("The chat no longer exists"));
                return;
            }
            if (chat.closed()) {
                sender.refuse(ErrorCode.CHAT_CLOSED.event("The chat is closed; the message was not stored"));
                return;
            }
            // checked as the frame's turn comes: a reply streaming now is not counted yet (the overspend)
            BudgetSpent spent = waitingForAConnection(
                            () -> budgets.spent(sender.tenantId(), sender.userId(), UsageKind.CHAT))
                    .orElse(null);
            if (spent != null) {
                sender.refuse(budgetExhausted(spent));
                return;
            }
            question = store(sender, asked);
        } catch (ChatNotFound gone) {
            sender.refuse(ErrorCode.CHAT_NOT_FOUND.event("The chat no longer exists"));
            return;
        } catch (RuntimeException unexpected) {
            if (DatabaseReachability.isOutage(unexpected)) {
                log.warn("A message to chat {} could not be stored: {}", sender.chatId(), unexpected.toString());
                sender.refuse(ErrorCode.SERVICE_UNAVAILABLE.event(
                        DatabaseReachability.whyUnavailable(unexpected) + "; the message was not stored",
                        Map.of("retry_after_ms", DatabaseReachability.RETRY_AFTER.toMillis())));
                return;
            }
            // overloaded, or a failure of the service's own: the sender must learn that nothing was stored
            log.error("A message to chat {} could not be stored", sender.chatId(), unexpected);
            sender.refuse(ErrorCode.INTERNAL_ERROR.event(
                    "The message could not be stored; nothing was kept. Send it again."));
            return;
        }
        if (question != null) {
            reply(sender, chat, question);
        }
    }

    /**
     * Stores and announces the user message, whose reply is owed from then on; null when it was a repeat, answered
     * to the sender alone.
     */
    private @Nullable OwedReply store(Asker sender, Question asked) {
        Map<String, Object> metadata = new LinkedHashMap<>(asked.metadata());
        metadata.put("user_id", sender.userId());
        // the screening's word alone: a client cannot flag its own message, nor hide a flag
        metadata.remove("moderation");
        metadata.remove("moderation_fallback");
        Screening screening = screener.screen(asked.content());
        if (screening.flagged() && screening.severity() != null) {
            metadata.put(
                    "moderation",
                    Map.of(
                            "categories",
                            screening.categories().stream()
                                    .map(SafetyCategory::value)
                                    .toList(),
                            "severity",
                            screening.severity().value()));
        }
        if (screening.unavailable() != null) {
            metadata.put(
                    "moderation_fallback",
                    "the " + screening.unavailable() + " screening did not answer; screened offline alone");
        }
        // the frame's block of seq numbers is reserved by the question's own write, the first number its own
        NewMessage message = NewMessage.fromUser(asked.content(), metadata, asked.clientMessageId())
                .withFreshEventSeqBlock(EventSequence.BLOCK);
        // the message and its flag are stored together: a flag never names a message that was not kept
        AppendedMessage appended = waitingForAConnection(() -> Objects.requireNonNull(transaction.execute(status -> {
            AppendedMessage stored = chats.append(sender.tenantId(), sender.chatId(), message);
            if (!stored.duplicate()) {
                flags.record(
                        sender.tenantId(),
                        sender.chatId(),
                        sender.userId(),
                        stored.message().id(),
                        screening);
            }
            return stored;
        })));
        if (appended.duplicate()) {
            ChatMessage original = appended.message();
            sender.tell(messageReceived(original, sender.userId(), Instant.now(), original.eventSeq()));
            return null;
        }
        long seq = Objects.requireNonNull(
                appended.message().eventSeq(), "a question stored with a fresh block has its seq");
        sequence.blockStartedBy(sender.chatId(), seq);
        OwedReply reply = new OwedReply(
                sender.tenantId(),
                sender.chatId(),
                sender.userId(),
                appended.message().id(),
                UUID.randomUUID());
        // before the acknowledgement: an acknowledged question is answered, by this node or, if it dies, another
        owed.owe(reply);
        publish(sender.chatId(), messageReceived(appended.message(), sender.userId(), Instant.now(), seq));
        return reply;
    }

    private void reply(Asker sender, Chat chat, OwedReply reply) {
        try {
            answer(chat, reply);
        } catch (ChatNotFound gone) {
            sender.tell(ErrorCode.CHAT_NOT_FOUND.event("The chat was deleted while the reply was generated"));
        } catch (RuntimeException toldToTheChat) {
            // stream() has told every connection on the chat already
        }
    }

    /** Streams and stores the reply; it is paid then, or when the chat was told why there is none. */
    private void answer(Chat chat, OwedReply reply) {
        try {
            stream(chat, reply, () -> owed.takenOver(reply));
        } catch (ReplyStream.ReplyTakenOver another) {
            log.info("The reply in chat {} was taken over by another node; this node's stream stops", chat.id());
        } finally {
            owed.paid(reply);
        }
    }

    /**
     * The reply of a node that died before storing it: the chat is told its stream ended ({@code error}
     * {@code REPLY_INTERRUPTED} with the abandoned {@code message_id}), then the question is answered again under a
     * new message id. A reply stored before its node died, a chat deleted or closed meanwhile: nothing more.
     */
    void takeOver(OwedReply abandoned) {
        try {
            Chat chat = waitingForAConnection(() -> chats.find(abandoned.tenantId(), abandoned.chatId()))
                    .orElse(null);
            if (chat == null) {
                return;
            }
            if (!streams.of(chat.id()).isEmpty()) {
                streams.ended(chat.id());
            }
            if (waitingForAConnection(() -> byId.hasMessage(chat.id(), abandoned.replyId()))) {
                return;
            }
            sequence.freshBlock(chat.id());
            // told even when nothing of it was streamed (or a later reply has replaced it in progress): the chat
            // learns the id it may have seen will never be stored
            publish(
                    chat.id(),
                    ErrorCode.REPLY_INTERRUPTED
                            .event(
                                    "The node generating this reply stopped before storing it; the question is"
                                            + " answered again",
                                    Map.of("message_id", abandoned.replyId().toString()))
                            .inChat(chat.id(), sequence.next(chat.id())));
            if (chat.closed()) {
                return;
            }
            OwedReply again = abandoned.answeredAgain();
            owed.owe(again);
            answer(chat, again);
        } catch (ChatNotFound gone) {
            // deleted while it was answered again: nobody is left to tell
        } catch (RuntimeException toldToTheChat) {
            // stream() has told every connection on the chat already
        } finally {
            owed.paid(abandoned);
        }
    }

    /**
     * Opens a turn the service starts, in the chat's lane: stores and announces its question (unless an earlier run
     * of the same turn stored it) and starts the answer's stream; empty when the chat does not exist (any more).
     */
    Optional<ReplyStream> openServiceTurn(ServiceTurn turn) {
        Chat chat = chats.find(turn.tenantId(), turn.chatId()).orElse(null);
        if (chat == null) {
            return Optional.empty();
        }
        sequence.freshBlock(chat.id());
        long seq = sequence.next(chat.id());
        AppendedMessage appended;
        try {
            appended = chats.append(turn.tenantId(), chat.id(), turn.question().withEventSeq(seq));
        } catch (ChatNotFound gone) {
            return Optional.empty();
        }
        if (!appended.duplicate()) {
            publish(chat.id(), messageReceived(appended.message(), turn.userId(), Instant.now(), seq));
        }
        return Optional.of(new ReplyStream(
                outlets,
                turn.tenantId(),
                chat.id(),
                appended.message().id(),
                turn.userId(),
                UUID.randomUUID(),
                turn.kind(),
                () -> false));
    }

    /**
     * Streams the assistant's answer to a client's question, from the chat's history and context, to every
     * connection on the chat, and stores it. Any failure is told to the chat (an {@code error} event) and thrown;
     * nothing of the answer is stored then.
     */
    private ChatMessage stream(Chat chat, OwedReply owed, BooleanSupplier takenOver) {
        List<ChatMessage> read;
        SafetyReply safety;
        try {
            read = waitingForAConnection(() -> byId.latestMessages(chat.id(), historyMessages));
            safety = safetyReplyTo(owed, read).orElse(null);
        } catch (RuntimeException failure) {
            // nothing is streamed yet: the stream opens only to tell the chat why no answer comes
            streamOf(chat, owed, UsageKind.CHAT, takenOver).failed(failure);
            throw failure;
        }
        List<ChatMessage> history = read;
        boolean aiAnswers = safety == null || safety.answerFollows();
        ReplyStream streaming = streamOf(chat, owed, aiAnswers ? UsageKind.CHAT : null, takenOver);
        try {
            Conversation conversation = aiAnswers ? waitingForAConnection(() -> conversation(chat, history)) : null;
            AssistantReply reply;
            if (safety == null) {
                reply = assistant.reply(Objects.requireNonNull(conversation), streaming);
            } else {
                String policy = aiAnswers ? safety.text() + "\n\n" : safety.text();
                WordByWord.stream(policy, streaming);
                reply = aiAnswers
                        ? following(policy, assistant.reply(Objects.requireNonNull(conversation), streaming))
                        : new AssistantReply(
                                policy, "safety", "policy", "stop", AssistantReply.Usage.reported(0, 0, 0));
            }
            streaming.beforeStoring();
            ChatMessage stored = storePatiently(streaming, reply);
            streaming.ended(stored, reply);
            return stored;
        } catch (RuntimeException failure) {
            streaming.failed(failure);
            throw failure;
        }
    }

    private ReplyStream streamOf(Chat chat, OwedReply owed, @Nullable UsageKind kind, BooleanSupplier takenOver) {
        return new ReplyStream(
                outlets, owed.tenantId(), chat.id(), owed.questionId(), owed.userId(), owed.replyId(), kind, takenOver);
    }

    /**
     * Stores the streamed reply however busy the database is, within {@link #replyStorePatience}: the student read
     * it, so it is to be in the chat's history. A try that failed after its transaction began may have committed;
     * the next one finds the reply stored then, and does not store it twice.
     */
    private ChatMessage storePatiently(ReplyStream streaming, AssistantReply reply) {
        return writes.write(replyStorePatience, Waits.BUSY_POOL_AND_OUTAGE, streaming::requireOurs, again -> {
            if (again) {
                // stored by a try that seemed to fail: this node's stream ends with it, whoever answers now
                Optional<ChatMessage> committed = byId.message(streaming.chatId(), streaming.replyId());
                if (committed.isPresent()) {
                    return committed.get();
                }
            }
            return Objects.requireNonNull(transaction.execute(status -> {
                // checked with the connection held: another node that took the reply over meanwhile answers it
                streaming.requireOurs();
                return streaming.store(reply);
            }));
        });
    }

    /**
     * A read or write for a client's frame, waiting out a busy pool within {@link #messageStorePatience}: a burst of
     * messages is stored in turn rather than refused. An unreachable database refuses the frame at once.
     */
    private <T> T waitingForAConnection(Supplier<T> work) {
        return writes.write(messageStorePatience, Waits.BUSY_POOL, again -> work.get());
    }

    /** The policy reply to the question being answered, when the screening flagged it (docs/safety.md). */
    private Optional<SafetyReply> safetyReplyTo(OwedReply owed, List<ChatMessage> history) {
        for (ChatMessage message : history) {
            if (message.id().equals(owed.questionId())) {
                return policy.replyTo(
                        message.content(),
                        message.metadata(),
                        () -> alerts.of(owed.tenantId()).helpText());
            }
        }
        return Optional.empty();
    }

    /** The AI's answer after the policy's text: one reply, its usage the AI's. */
    private static AssistantReply following(String policy, AssistantReply answer) {
        return new AssistantReply(
                policy + answer.content(), answer.provider(), answer.model(), answer.finishReason(), answer.usage());
    }

    private Conversation conversation(Chat chat, List<ChatMessage> history) {
        List<Turn> turns = new ArrayList<>();
        for (ChatMessage message : history) {
            turns.add(new Turn(
                    message.senderRole() == SenderRole.USER ? Turn.Role.USER : Turn.Role.ASSISTANT, message.content()));
        }
        List<ContextDocument> context = new ArrayList<>();
        Verdict review = null;
        for (ChatContextSource source : contextSources) {
            ChatContextSource.ChatContext found = source.contextOf(chat);
            context.addAll(found.documents());
            review = review == null ? found.review() : review;
        }
        return new Conversation(turns, context, review);
    }

    private void publish(ChatId chatId, ServerEvent event) {
        outlets.publish(chatId, event);
    }

    private void publish(ChatId chatId, ChatEvent event) {
        outlets.publish(chatId, event);
    }

    static ServerEvent.Error budgetExhausted(BudgetSpent spent) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("resets_at", spent.resetsAt());
        details.put("budget", spent.budget().value());
        details.put("limit", spent.limit());
        details.put("used", spent.used());
        return ErrorCode.BUDGET_EXHAUSTED.event(
                "The AI budget " + spent.budget().value() + " is spent until " + spent.resetsAt()
                        + "; the message was not stored",
                spent.fix(),
                details);
    }

    /** The announcement of a stored user message. */
    static ServerEvent.MessageReceived messageReceived(
            ChatMessage message, String userId, Instant at, @Nullable Long seq) {
        return new ServerEvent.MessageReceived(
                at, message.id(), message.chatId(), userId, message.content(), message.clientMessageId(), seq);
    }

    /** The announcement of a stored assistant reply, the whole of it. */
    static ServerEvent.StreamEnded streamEnded(ChatMessage message, String userId, Instant at, long seq) {
        return new ServerEvent.StreamEnded(at, message.id(), message.chatId(), userId, message.content(), seq);
    }
}
