package com.chatreview.grading;

import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.Rubric.Criterion;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.grading.Verdict.Finding;
import com.chatreview.grading.Verdict.Flag;
import com.chatreview.grading.Verdict.Severity;
import com.chatreview.grading.source.GraderAddressed;
import com.chatreview.grading.source.GraderAddressed.Attempt;
import com.chatreview.grading.source.SourceFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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

    /**
     * The most of a criterion's points work can earn when nothing ran it (docs/decisions.md, Homework tests): its
     * resemblance to a reference is not evidence that it is right.
     */
    public static final double UNVERIFIED_CEILING = 0.75;

    /** The failed tests that get a finding each; the rest are counted in one more. */
    static final int MAX_TEST_FINDINGS = 20;

    /** The best letter of work that fails one of the teacher's tests. */
    static final String BEST_WITH_A_FAILING_TEST = "C";

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
        List<Finding> ofTests = testFindings(request, files, readable.isEmpty());
        List<Finding> placed = new ArrayList<>(ofTests);
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
            TestEvidence tests = request.tests();
            if (criterion.tests() && tests != null) {
                String said = score == null
                                || score.explanation() == null
                                || score.explanation().isBlank()
                        ? ""
                        : " " + score.explanation().strip();
                if (tests.ran()) {
                    points = tests.total() == 0
                            ? 0
                            : (int) ((long) criterion.maxPoints() * tests.passed() / tests.total());
                    explanation = testsExplanation(tests) + said;
                } else {
                    points = Math.min(points, (int) Math.floor(criterion.maxPoints() * UNVERIFIED_CEILING));
                    explanation = explanation + " The homework's tests could not run, so this is at most "
                            + Math.round(UNVERIFIED_CEILING * 100) + "% of the points.";
                }
            }
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
        String grade = capped(request, Grades.letter(points, total));
        Set<String> testMessages = ofTests.stream().map(Finding::message).collect(Collectors.toSet());
        List<String> testFindingIds = findings.stream()
                .filter(finding -> testMessages.contains(finding.message()))
                .map(Finding::id)
                .toList();
        String analysis = render(
                request, proposal, grade, points, total, criteria, findings, testFindingIds, shown, flags.size());
        return new Settled(
                new Verdict(grade, points, total, criteria, findings, shown, proposal.summary(), analysis), dropped);
    }

    /**
     * The letter, at most {@link #BEST_WITH_A_FAILING_TEST} while a teacher's test fails: A and B say the work is
     * right, and a failing test shows it is not, however few points the tests carry in the rubric.
     */
    private static String capped(ReviewRequest request, String letter) {
        return failingTest(request) && letter.compareTo(BEST_WITH_A_FAILING_TEST) < 0
                ? BEST_WITH_A_FAILING_TEST
                : letter;
    }

    private static boolean failingTest(ReviewRequest request) {
        TestEvidence tests = request.tests();
        return tests != null && tests.ran() && tests.passed() < tests.total();
    }

    /** What the tests say about a criterion they grade. */
    private static String testsExplanation(TestEvidence tests) {
        String passing = tests.passed() + " of " + tests.total() + " of the teacher's tests pass";
        if (tests.passed() == tests.total()) {
            return "All " + tests.total() + " of the teacher's tests pass.";
        }
        if (tests.note() != null) {
            return passing + " (" + Place.shorten(tests.note()) + "): the points are in proportion.";
        }
        return passing + ": the points are in proportion.";
    }

    /**
     * A finding for each test that failed (the first {@link #MAX_TEST_FINDINGS}), on the student's line its trace
     * names when the submission has that line; {@code critical} when no test passed.
     */
    private static List<Finding> testFindings(
            ReviewRequest request, Map<String, SourceFile> files, boolean nothingReadable) {
        TestEvidence tests = request.tests();
        if (tests == null || !tests.ran() || tests.failures().isEmpty()) {
            return List.of();
        }
        Rubric rubric = request.rubric();
        String criterionId = rubric.testBound().isEmpty()
                ? rubric.criteria().getFirst().id()
                : rubric.testBound().getFirst().id();
        Severity severity = tests.passed() == 0 ? Severity.CRITICAL : Severity.MAJOR;
        List<Finding> findings = new ArrayList<>();
        for (TestEvidence.FailedTest failed :
                tests.failures().stream().limit(MAX_TEST_FINDINGS).toList()) {
            // the message's first line says what failed; the lines after it (a runner's diff) are in the submission's
            // tests
            String message = "The test " + Place.code(Place.shorten(failed.name())) + " fails"
                    + (failed.message() == null || failed.message().isBlank()
                            ? "."
                            : ": "
                                    + Place.shorten(failed.message()
                                            .strip()
                                            .lines()
                                            .findFirst()
                                            .orElse("")));
            Finding placed = failed.file() == null
                    ? null
                    : place(
                            new Observation(criterionId, severity, failed.file(), failed.line(), null, message),
                            rubric,
                            files,
                            nothingReadable);
            findings.add(
                    placed != null
                            ? placed
                            : new Finding(UNNUMBERED, criterionId, severity, null, null, null, null, message));
        }
        int more = tests.failures().size() - MAX_TEST_FINDINGS;
        if (more > 0) {
            findings.add(new Finding(
                    UNNUMBERED,
                    criterionId,
                    severity,
                    null,
                    null,
                    null,
                    null,
                    more + " more of the teacher's tests fail (the submission's tests list each)."));
        }
        return findings;
    }

    /**
     * The flags the service raises itself, whatever the reviewer says: unreadable files, no readable work, tests
     * that could not run, and every line of the student's files addressed to the grader.
     */
    private static List<Flag> flags(ReviewRequest request, List<SourceFile> readable) {
        List<Flag> flags = new ArrayList<>();
        TestEvidence tests = request.tests();
        if (tests != null && !tests.ran()) {
            flags.add(new Flag(
                    Flag.TESTS_NOT_RUN,
                    null,
                    null,
                    "The homework's tests were not run"
                            + (tests.note() == null ? "" : ": " + tests.note())
                            + ". The criteria they grade earn at most " + Math.round(UNVERIFIED_CEILING * 100)
                            + "% of their points until they run."));
        }
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
            List<String> testFindingIds,
            List<Flag> flags,
            int allFlags) {
        List<String> sections = new ArrayList<>();
        if (!proposal.preface().isEmpty()) {
            sections.add(proposal.preface());
        }
        sections.add(headline(request, grade, points, total));
        if (request.tests() != null) {
            sections.add("## Tests\n\n" + testsSummary(request.tests(), testFindingIds));
        }
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

    /** How many of the teacher's tests pass, and which findings are the failed ones. */
    private static String testsSummary(TestEvidence tests, List<String> failed) {
        if (!tests.ran()) {
            return "The homework's tests were not run" + (tests.note() == null ? "." : ": " + tests.note() + ".");
        }
        if (tests.total() == 0) {
            return "The teacher's tests ran, but counted no test.";
        }
        StringBuilder text = new StringBuilder();
        if (tests.passed() == tests.total()) {
            text.append("All ").append(tests.total()).append(" of the teacher's tests pass.");
        } else {
            text.append(tests.passed()).append(" of ").append(tests.total()).append(" of the teacher's tests pass.");
        }
        if (tests.note() != null) {
            text.append(" ").append(Place.shorten(tests.note())).append('.');
        }
        if (!failed.isEmpty()) {
            text.append(" Each failing test is a finding (")
                    .append(String.join(", ", failed))
                    .append(").");
        }
        return text.toString();
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
        line.append(". The letter follows from the points: A from 90%, B 80%, C 70%, D 60%, E 50%");
        if (failingTest(request)) {
            line.append("; while one of the teacher's tests fails, it is at most ")
                    .append(BEST_WITH_A_FAILING_TEST);
        }
        return line.append('.').toString();
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
