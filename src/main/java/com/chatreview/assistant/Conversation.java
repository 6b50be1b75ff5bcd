package com.chatreview.assistant;

import com.chatreview.grading.Verdict;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the assistant answers: the chat's messages so far, oldest first, ending with the user message to
 * answer, and what the assistant should know beyond them.
 *
 * @param turns the chat's recent history; providers keep within their own budget, dropping the oldest first
 * @param context material the conversation is about (a homework's task, restrictions and the student's files
 *     for a review chat), by name; empty for a plain chat
 * @param review the verdict of the review a review chat is about, or {@code null}: the assistant answers from it
 */
public record Conversation(
        List<Turn> turns,
        List<ContextDocument> context,
        @Nullable Verdict review) {

    /** A conversation about no review. */
    public Conversation(List<Turn> turns, List<ContextDocument> context) {
        this(turns, context, null);
    }

    public Conversation {
        turns = List.copyOf(turns);
        context = context == null ? List.of() : List.copyOf(context);
        if (turns.isEmpty()) {
            throw new IllegalArgumentException("a conversation needs at least the message to answer");
        }
    }

    public Turn lastUserTurn() {
        return turns.reversed().stream()
                .filter(turn -> turn.role() == Turn.Role.USER)
                .findFirst()
                .orElse(turns.getLast());
    }

    /** Whether the assistant has not spoken in this chat yet. */
    public boolean firstReply() {
        return turns.stream().noneMatch(turn -> turn.role() == Turn.Role.ASSISTANT);
    }

    public record Turn(Role role, String content) {
        public Turn {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(content, "content");
        }

        public enum Role {
            USER,
            ASSISTANT
        }
    }

    /**
     * A document of the conversation's context.
     *
     * @param kind what it is to the conversation ({@code task}, {@code solution}, {@code restriction},
     *     {@code submission}...)
     */
    public record ContextDocument(String kind, String name, String content) {}
}
