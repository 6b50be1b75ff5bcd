package com.chatreview.grading;

import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.source.RestrictionParser;
import com.chatreview.grading.source.RestrictionRules;
import com.chatreview.grading.source.SourceFile;
import java.util.ArrayList;
import java.util.List;

/**
 * One rule of a homework's restriction files and whether the student's files keep it, as the grader checks it.
 *
 * @param rule the rule as the teacher wrote it
 * @param file the restriction file it stands in
 * @param line its line there, 1-based
 * @param where for a broken rule, where it breaks ({@code fractions.py, line 1: `from fractions import x`}) or
 *     what is missing; empty otherwise
 */
public record RuleOutcome(String rule, String file, int line, State state, List<String> where) {

    public RuleOutcome {
        where = List.copyOf(where);
    }

    public enum State {
        KEPT,
        BROKEN,
        /** A rule the grader cannot check by reading the code ("Write readable code"): the teacher's to judge. */
        CANNOT_CHECK
    }

    private static final int MAX_PLACES = 3;

    /** Every rule of the restriction files, in file and line order, checked against the student's readable files. */
    public static List<RuleOutcome> check(List<ReviewDocument> restrictions, List<ReviewDocument> submission) {
        RestrictionRules rules = RestrictionParser.parse(Verdicts.readable(restrictions));
        List<SourceFile> readable = Verdicts.readable(submission);
        List<RuleOutcome> outcomes = new ArrayList<>();
        if (!readable.isEmpty()) {
            for (RestrictionRules.Outcome outcome : rules.check(readable)) {
                Place source = outcome.rule().source();
                List<String> where = new ArrayList<>();
                outcome.hits().stream().limit(MAX_PLACES).map(Place::pointer).forEach(where::add);
                outcome.missing().forEach(missing -> where.add("no file has " + missing.describe()));
                outcomes.add(new RuleOutcome(
                        source.text().strip(),
                        source.file(),
                        source.line(),
                        outcome.broken() ? State.BROKEN : State.KEPT,
                        where));
            }
        }
        for (Place place : rules.uncheckable()) {
            outcomes.add(
                    new RuleOutcome(place.text().strip(), place.file(), place.line(), State.CANNOT_CHECK, List.of()));
        }
        outcomes.sort(java.util.Comparator.comparing(RuleOutcome::file).thenComparingInt(RuleOutcome::line));
        return outcomes;
    }
}
