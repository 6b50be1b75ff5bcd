package com.chatreview.grading;

import com.chatreview.grading.GraderAddressed.Attempt;
import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.Rubric.Criterion;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.grading.Verdict.Finding;
import com.chatreview.grading.Verdict.Flag;
import com.chatreview.grading.Verdict.Severity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Where a reviewer's proposal becomes a {@link Verdict} by the rules the service keeps whatever a reviewer says
 * (docs/api.md, The review): points clamped to each criterion's maximum, findings only on files and lines the submission
 * has, their quotes taken from the student's text, the flags the service raises itself, no points at all without
 * readable work, the letter computed from the points, and the analysis written from all of it. Both providers'
 * reviews go through here, so the text and the fields cannot disagree.
 */
public final class Verdicts {

    /** The longest quote a finding carries; a longer one is its first characters. */
    public static final int MAX_QUOTE = 1000;

    static final int MAX_FINDINGS = 50;
    static final int MAX_FLAGS = 50;
    private static final int MAX_PLACES_SHOWN = 8;
    /** The id of a placed finding until {@link #settle} numbers the ones it keeps; no verdict holds it. */
    private static final String UNNUMBERED = "";

    private Verdicts() {}

    /**
     * What a reviewer proposes.
     *
     * @param scores points per criterion id; a criterion without one gets 0
     * @param observations what it found, on the student's files or the whole submission
     * @param flags what it wants the teacher to know beyond the flags the service raises itself
     * @param preface text the analysis starts with (the offline reviewer says what it is), possibly empty
     * @param summary text the analysis ends with (the reviewer's own words, details), possibly empty
     */
    public record Proposal(
            List<Score> scores, List<Observation> observations, List<Flag> flags, String preface, String summary) {

        public Proposal {
            scores = List.copyOf(scores);
            observations = List.copyOf(observations);
            flags = List.copyOf(flags);
            preface = preface == null ? "" : preface.strip();
            summary = summary == null ? "" : summary.strip();
        }
    }

    public record Score(String criterionId, int points, String explanation) {}

    /**
     * A finding as a reviewer proposes it, before the service checks its place and takes its quote.
     *
     * @param severity how much it weighs, or {@code null} for {@link Severity#INFO}
     * @param file a student's file as named in the request, or {@code null} for the whole submission
     * @param line 1-based, or {@code null} for the whole file
     * @param endLine the last line, or {@code null} for {@code line} alone
     */
    public record Observation(
            String criterionId,
            @Nullable Severity severity,
            @Nullable String file,
            @Nullable Integer line,
            @Nullable Integer endLine,
            String message) {}

    /**
     * @param droppedFindings proposed findings left out because their criterion, file or line does not exist
     */
    public record Settled(Verdict verdict, int droppedFindings) {}

    public static Settled settle(ReviewRequest request, Proposal proposal) {
        Rubric rubric = request.rubric();
        List<SourceFile> readable = readable(request.submission());
        Map<String, SourceFile> files = new LinkedHashMap<>();
        readable.forEach(file -> files.putIfAbsent(file.name(), file));
        List<String> order =
                request.submission().stream().map(ReviewDocument::name).toList();

        int dropped = 0;
        List<Finding> placed = new ArrayList<>();
        for (Observation observation : proposal.observations()) {
            Finding checked = place(observation, rubric, files, readable.isEmpty());
            if (checked == null) {
                dropped++;
            } else {
                placed.add(checked);
            }
        }
        List<Finding> kept = placed.stream()
                .sorted(Comparator.comparing(Finding::severity).reversed().thenComparing(readingOrder(order)))
                .limit(MAX_FINDINGS)
                .sorted(readingOrder(order))
                .toList();
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < kept.size(); i++) {
            findings.add(kept.get(i).withId("f" + (i + 1)));
        }

        Map<String, Score> proposed = new LinkedHashMap<>();
        proposal.scores().forEach(score -> proposed.putIfAbsent(score.criterionId(), score));
        List<CriterionScore> criteria = new ArrayList<>();
        for (Criterion criterion : rubric.criteria()) {
            Score score = proposed.get(criterion.id());
            int points = score == null ? 0 : Math.clamp(score.points(), 0, criterion.maxPoints());
            String explanation = score == null
                            || score.explanation() == null
                            || score.explanation().isBlank()
                    ? "The reviewer gave no points for this criterion."
                    : score.explanation().strip();
            if (readable.isEmpty()) {
                points = 0;
                explanation = request.submission().isEmpty()
                        ? "No file was submitted, so there is nothing to grade: 0 points."
                        : "No file of the submission has text I could read, so there is nothing to grade: 0 points.";
            }
            List<String> ids = findings.stream()
                    .filter(finding -> criterion.id().equals(finding.criterionId()))
                    .map(Finding::id)
                    .toList();
            criteria.add(new CriterionScore(
                    criterion.id(), criterion.title(), points, criterion.maxPoints(), explanation, ids));
        }

        List<Flag> flags = new ArrayList<>(flags(request, readable));
        proposal.flags().forEach(flag -> {
            if (!flags.contains(flag)) {
                flags.add(flag);
            }
        });
        List<Flag> shown = flags.stream().limit(MAX_FLAGS).toList();

        int points = criteria.stream().mapToInt(CriterionScore::points).sum();
        int total = rubric.totalPoints();
        String grade = Grades.letter(points, total);
        String analysis = render(request, proposal, grade, points, total, criteria, findings, shown, flags.size());
        return new Settled(
                new Verdict(grade, points, total, criteria, findings, shown, proposal.summary(), analysis), dropped);
    }

    /**
     * The flags the service raises itself, whatever the reviewer says: unreadable files, no readable work, and
     * every line of the student's files addressed to the grader.
     */
    private static List<Flag> flags(ReviewRequest request, List<SourceFile> readable) {
        List<Flag> flags = new ArrayList<>();
        if (readable.isEmpty()) {
            flags.add(new Flag(
                    Flag.NO_READABLE_WORK,
                    null,
                    null,
                    request.submission().isEmpty()
                            ? "No file was submitted."
                            : "No file of the submission has text that could be read: every criterion gets 0"
                                    + " points."));
        }
        for (ReviewDocument document : request.submission()) {
            if (!document.opened()) {
                flags.add(new Flag(
                        Flag.UNREADABLE_FILE,
                        document.name(),
                        null,
                        document.name() + " was not read: " + document.notOpened() + "."));
            }
        }
        for (Attempt attempt : GraderAddressed.find(readable)) {
            boolean name = attempt.place().line() == 0;
            flags.add(new Flag(
                    Flag.ADDRESSED_TO_GRADER,
                    attempt.place().file(),
                    name ? null : attempt.place().line(),
                    (name ? "The file's name " : "This line ") + attempt.attempt()
                            + " instead of being part of the work; it was not followed and earns nothing."));
        }
        return flags;
    }

    static List<SourceFile> readable(List<ReviewDocument> documents) {
        return documents.stream()
                .filter(document -> document.opened() && !document.text().isBlank())
                .map(SourceFile::read)
                .toList();
    }

    /**
     * The observation as a finding (its id given later), with its quote; {@code null} when its criterion, file or
     * line does not exist.
     */
    private static @Nullable Finding place(
            Observation observation, Rubric rubric, Map<String, SourceFile> files, boolean nothingReadable) {
        boolean known =
                rubric.criteria().stream().anyMatch(criterion -> criterion.id().equals(observation.criterionId()));
        if (!known || observation.message() == null || observation.message().isBlank()) {
            return null;
        }
        Severity severity = observation.severity() == null ? Severity.INFO : observation.severity();
        String message = observation.message().strip();
        if (observation.file() == null) {
            return new Finding(UNNUMBERED, observation.criterionId(), severity, null, null, null, null, message);
        }
        SourceFile file = files.get(observation.file());
        if (file == null || nothingReadable) {
            return null;
        }
        if (observation.line() == null) {
            return new Finding(UNNUMBERED, observation.criterionId(), severity, file.name(), null, null, null, message);
        }
        int lines = file.lines().size();
        int line = observation.line();
        if (line < 1 || line > lines) {
            return null;
        }
        int endLine = observation.endLine() == null ? line : Math.clamp(observation.endLine(), line, lines);
        StringBuilder quote = new StringBuilder();
        for (int number = line; number <= endLine && quote.length() <= MAX_QUOTE; number++) {
            if (number > line) {
                quote.append('\n');
            }
            quote.append(file.line(number));
        }
        String text = quote.length() > MAX_QUOTE ? cut(quote) : quote.toString();
        return new Finding(UNNUMBERED, observation.criterionId(), severity, file.name(), line, endLine, text, message);
    }

    /** The first {@link #MAX_QUOTE} characters, not splitting a surrogate pair. */
    private static String cut(CharSequence text) {
        int end = MAX_QUOTE;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.subSequence(0, end).toString();
    }

    /** The whole submission first, then file by file in upload order, line by line. */
    private static Comparator<Finding> readingOrder(List<String> order) {
        return Comparator.comparing((Finding finding) -> finding.file() == null ? -1 : order.indexOf(finding.file()))
                .thenComparing(finding -> finding.line() == null ? 0 : finding.line());
    }

    // --- the analysis

    private static String render(
            ReviewRequest request,
            Proposal proposal,
            String grade,
            int points,
            int total,
            List<CriterionScore> criteria,
            List<Finding> findings,
            List<Flag> flags,
            int allFlags) {
        List<String> sections = new ArrayList<>();
        if (!proposal.preface().isEmpty()) {
            sections.add(proposal.preface());
        }
        sections.add(headline(request, grade, points, total));
        sections.add(
                "## Criteria\n\n" + criteria.stream().map(Verdicts::criterion).collect(Collectors.joining("\n")));
        if (!findings.isEmpty()) {
            sections.add(
                    "## Findings\n\n" + findings.stream().map(Verdicts::finding).collect(Collectors.joining("\n")));
        }
        if (!flags.isEmpty()) {
            sections.add("## For the teacher\n\n" + flagLines(flags, allFlags));
        }
        if (!proposal.summary().isEmpty()) {
            sections.add(proposal.summary());
        }
        return String.join("\n\n", sections);
    }

    private static String headline(ReviewRequest request, String grade, int points, int total) {
        StringBuilder line = new StringBuilder("**Grade: ")
                .append(grade)
                .append("**, ")
                .append(points)
                .append(" of ")
                .append(total)
                .append(" points (")
                .append(Grades.percent(points, total))
                .append("%)");
        if (request.assignment() != null && !request.assignment().isBlank()) {
            line.append(" for assignment ").append(Place.code(Place.shorten(request.assignment())));
        }
        if (request.subject() != null && !request.subject().isBlank()) {
            line.append(" (").append(Place.shorten(request.subject())).append(')');
        }
        return line.append(". The letter follows from the points: A from 90%, B 80%, C 70%, D 60%, E 50%.")
                .toString();
    }

    private static String criterion(CriterionScore score) {
        String refs = score.findingIds().isEmpty()
                ? ""
                : " (" + (score.findingIds().size() == 1 ? "finding " : "findings ")
                        + String.join(", ", score.findingIds()) + ")";
        return "- **" + score.title() + "**: " + score.points() + " of " + score.maxPoints() + ". "
                + score.explanation() + refs;
    }

    private static String finding(Finding finding) {
        StringBuilder line = new StringBuilder("- ")
                .append(finding.id())
                .append(", ")
                .append(finding.severity().value());
        if (finding.file() != null) {
            line.append(", ").append(finding.file());
            if (finding.line() != null) {
                line.append(":").append(finding.line());
                if (!Objects.requireNonNull(finding.endLine(), "a finding with a line has its end line")
                        .equals(finding.line())) {
                    line.append("-").append(finding.endLine());
                }
            }
        }
        line.append(": ").append(finding.message());
        if (finding.quote() != null && !finding.quote().isBlank()) {
            line.append(" ")
                    .append(Place.code(
                            Place.shorten(finding.quote().lines().findFirst().orElse(""))));
        }
        return line.toString();
    }

    /** One line per kind and message, with the places it was raised at: many alike flags stay one line. */
    private static String flagLines(List<Flag> flags, int allFlags) {
        Map<String, List<Flag>> alike = new LinkedHashMap<>();
        flags.forEach(flag -> alike.computeIfAbsent(flag.kind() + "\n" + flag.message(), key -> new ArrayList<>())
                .add(flag));
        List<String> lines = new ArrayList<>();
        alike.values().forEach(group -> {
            List<String> places = group.stream()
                    .filter(flag -> flag.file() != null)
                    .map(flag -> flag.file() + (flag.line() == null ? "" : ":" + flag.line()))
                    .toList();
            String where = places.isEmpty()
                    ? ""
                    : " ("
                            + String.join(
                                    ", ",
                                    places.stream().limit(MAX_PLACES_SHOWN).toList())
                            + (places.size() > MAX_PLACES_SHOWN
                                    ? " and " + (places.size() - MAX_PLACES_SHOWN) + " more"
                                    : "")
                            + ")";
            lines.add("- `" + group.getFirst().kind() + "`" + where + ": "
                    + group.getFirst().message());
        });
        if (allFlags > flags.size()) {
            lines.add("- and " + (allFlags - flags.size()) + " more flags of these kinds.");
        }
        return String.join("\n", lines);
    }
}
