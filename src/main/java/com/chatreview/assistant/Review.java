package com.chatreview.assistant;

import com.chatreview.grading.Verdict;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.grading.Verdict.Finding;
import com.chatreview.grading.Verdict.Flag;
import java.util.List;

/**
 * A finished review of a homework submission: the verdict every provider's review ends as, and how it was streamed.
 *
 * @param reply the review as it was streamed: its {@link AssistantReply#content()} is the verdict's analysis
 */
public record Review(Verdict verdict, AssistantReply reply) {

    /** The review of a verdict, streamed as {@code reply}. */
    static Review of(Verdict verdict, AssistantReply reply) {
        return new Review(verdict, reply);
    }

    /** {@code A} to {@code F}, from the points. */
    public String grade() {
        return verdict.grade();
    }

    public List<CriterionScore> criteria() {
        return verdict.criteria();
    }

    public List<Finding> findings() {
        return verdict.findings();
    }

    public List<Flag> flags() {
        return verdict.flags();
    }

    public String analysis() {
        return reply.content();
    }
}
