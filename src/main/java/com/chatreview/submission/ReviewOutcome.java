package com.chatreview.submission;

import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.grading.Verdict.Finding;
import com.chatreview.grading.Verdict.Flag;
import java.util.List;

/**
 * What the review found beside its grade and analysis (docs/api.md, The review): points per criterion, findings, flags for
 * the teacher. Empty until the review is stored, never absent.
 */
public record ReviewOutcome(List<CriterionScore> criteria, List<Finding> findings, List<Flag> flags) {

    public static final ReviewOutcome NONE = new ReviewOutcome(List.of(), List.of(), List.of());

    public ReviewOutcome {
        criteria = List.copyOf(criteria);
        findings = List.copyOf(findings);
        flags = List.copyOf(flags);
    }
}
