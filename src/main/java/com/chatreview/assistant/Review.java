package com.chatreview.assistant;

import java.util.Set;

/**
 * A finished review of a homework submission.
 *
 * @param grade {@code A} to {@code F}
 * @param reply the review as it was streamed: its {@link AssistantReply#content()} is the analysis (Markdown)
 */
public record Review(String grade, AssistantReply reply) {

    public static final Set<String> GRADES = Set.of("A", "B", "C", "D", "E", "F");

    public Review {
        if (!GRADES.contains(grade)) {
            throw new IllegalArgumentException("A grade is A to F, not '" + grade + "'");
        }
    }

    public String analysis() {
        return reply.content();
    }
}
