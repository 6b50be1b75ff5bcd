package com.chatreview.assistant;

import com.chatreview.grading.Verdict;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.grading.Verdict.Finding;
import com.chatreview.grading.Verdict.Flag;
import java.util.List;
import java.util.Set;

/**
 * A finished review of a homework submission.
 *
 * @param grade {@code A} to {@code F}
 * @param criteria the points per criterion of the rubric; empty from a provider that does not score them
 * @param findings what the review found, on the student's files or the whole submission
 * @param flags what the teacher should know, raised by the service whatever the provider said
 * @param reply the review as it was streamed: its {@link AssistantReply#content()} is the analysis (Markdown)
 */
public record Review(
        String grade, List<CriterionScore> criteria, List<Finding> findings, List<Flag> flags, AssistantReply reply) {

    public static final Set<String> GRADES = Set.of("A", "B", "C", "D", "E", "F");

    public Review {
        if (!GRADES.contains(grade)) {
            throw new IllegalArgumentException("A grade is A to F, not '" + grade + "'");
        }
        criteria = List.copyOf(criteria);
        findings = List.copyOf(findings);
        flags = List.copyOf(flags);
    }

    /** The review of a verdict, streamed as {@code reply}. */
    static Review of(Verdict verdict, AssistantReply reply) {
        return new Review(verdict.grade(), verdict.criteria(), verdict.findings(), verdict.flags(), reply);
    }

    public String analysis() {
        return reply.content();
    }
}
