package com.chatreview.grading;

import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.Rubric.Criterion;
import com.chatreview.grading.Verdict.Flag;
import com.chatreview.grading.Verdict.Severity;
import com.chatreview.grading.Verdicts.Observation;
import com.chatreview.grading.Verdicts.Proposal;
import com.chatreview.grading.Verdicts.Score;
import com.chatreview.grading.source.GraderAddressed;
import com.chatreview.grading.source.GraderAddressed.Attempt;
import com.chatreview.grading.source.RestrictionParser;
import com.chatreview.grading.source.RestrictionRules;
import com.chatreview.grading.source.RestrictionRules.Check;
import com.chatreview.grading.source.RestrictionRules.Outcome;
import com.chatreview.grading.source.Similarity;
import com.chatreview.grading.source.SourceFile;
import com.chatreview.grading.source.SourceFile.Kind;
import com.chatreview.grading.source.SourceFile.Token;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The rule-based review of a homework: what the task asks, which files there are, which restriction rules the
 * submission breaks, how close it is to the reference solution and what in it is addressed to the grader, then
 * a grade that follows from these by the rubric of {@code docs/review-rubric.md}. No model and no randomness:
 * the same request gives the same text and the same grade. The grader scores; what it measured is written out
 * for the reader by {@link AnalysisWriter}.
 */
public final class Grader {

    static final String INTRODUCTION = "I am this service's offline reviewer, not a language model: I review by"
            + " fixed rules you can check by hand (the restriction files, a similarity to the reference solution,"
            + " which files are there, and for a written answer how close its meaning is to the reference answer's,"
            + " as a small sentence-similarity model measures it), so I can point to lines, but I cannot tell"
            + " whether the work is right in ways these rules do not measure.";

    /** The similarity to the reference (percent) from which correctness earns every point. */
    static final int SIMILARITY_FULL = 80;
    /** The similarity to the reference (percent) up to which correctness earns nothing. */
    static final int SIMILARITY_NONE = 10;
    /**
     * Nothing ran the work: its likeness to the reference, or what it has of the task's terms, is not evidence that it
     * is right, so correctness earns at most this share of its points (docs/decisions.md, Homework tests).
     */
    static final double UNVERIFIED_CEILING = Verdicts.UNVERIFIED_CEILING;

    private static final int MAX_TASK_TERMS = 8;
    static final int MAX_HITS = 3;
    private static final int MAX_NAMES = 6;

    private static final Pattern WORD = Pattern.compile("\\p{L}[\\p{L}_]{3,}");
    private static final Pattern SHORT_WORD = Pattern.compile("\\p{L}[\\p{L}_]{2,}");
    private static final Pattern BACKQUOTED = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern IDENTIFIER = Pattern.compile(
            "\\b([\\p{L}_][\\p{L}\\p{N}]*_[\\p{L}\\p{N}_]*|[\\p{Ll}]+[\\p{Lu}][\\p{L}\\p{N}]*|[\\p{L}_][\\p{L}\\p{N}_]*(?=\\())");
    private static final Pattern PROGRAM = Pattern.compile(
            "(?i)\\.(?:py|java|c|cc|cpp|h|hpp|js|mjs|ts|go|rs|kt|rb|cs|php|swift|scala|sql|sh|r|m|ipynb)$");
    private static final Pattern NAMED_FILE = Pattern.compile(
            "(?i)\\b(?:submit|upload|hand in|create|save|named|called|name it|in a file)\\b[^.\\n]{0,40}?"
                    + "\\b([\\w-]+\\.(?:py|java|c|cc|cpp|h|hpp|js|ts|go|rs|kt|rb|cs|php|swift|scala|sql|sh|r|m|txt|md"
                    + "|ipynb|html|css))\\b");
    private static final Set<String> TASK_WORDS = Set.of(
            "write",
            "function",
            "functions",
            "program",
            "programs",
            "return",
            "returns",
            "input",
            "output",
            "print",
            "file",
            "files",
            "number",
            "numbers",
            "value",
            "values",
            "task",
            "solution",
            "submit",
            "student",
            "code",
            "example",
            "examples",
            "should",
            "must",
            "given",
            "following",
            "each",
            "result",
            "results",
            "implement",
            "create",
            "takes",
            "take",
            "line",
            "lines",
            "first",
            "second",
            "true",
            "false",
            "test",
            "tests",
            "method",
            "class",
            "string",
            "list",
            "integer",
            "integers",
            "variable",
            "variables",
            "answer",
            "question");

    enum Status {
        READ,
        EMPTY,
        NOT_OPENED
    }

    record Student(
            ReviewDocument document,
            Status status,
            @Nullable SourceFile source) {}

    private final ProseMeaning meaning;

    /** A grader without a sentence model: written answers are graded as it cannot judge them. */
    public Grader() {
        this(ProseMeaning.NONE);
    }

    /** A grader that judges written answers by meaning with this model. */
    public Grader(ProseMeaning meaning) {
        this.meaning = meaning;
    }

    /**
     * How close a written answer is to the reference answer, 0 to 1, as a review measures it before its scale turns
     * it into points (docs/review-rubric.md, Written answers); empty without a model. For the benchmark that sets
     * the scale on human graders' scores.
     */
    public static OptionalDouble closeness(ProseMeaning meaning, String answer, String reference, String task) {
        Double score = Prose.judge(meaning, answer, reference, task).score();
        return score == null ? OptionalDouble.empty() : OptionalDouble.of(score);
    }

    /** Reviews the homework against its rubric: points per criterion, the findings, and the letter they give. */
    public Verdict review(ReviewRequest request) {
        List<Attempt> attempts = GraderAddressed.find(Verdicts.readable(request.submission()));
        Measures measures = Measures.of(request, meaning);
        Assessments assessments = Assessments.of(measures);
        if (!attempts.isEmpty()) {
            // graded as handed in and as if those lines were not there, each criterion by the lower: the text can
            // earn nothing, and code on the same line (a forbidden call beside the comment) still counts
            assessments = assessments.lower(Assessments.of(Measures.of(withoutLines(request, attempts), meaning)));
        }
        List<Score> scores = new ArrayList<>();
        List<Observation> observations = new ArrayList<>();
        List<Flag> flags = new ArrayList<>();
        Set<Aspect> explained = new HashSet<>();
        List<Flag> unverified = new ArrayList<>(1);
        double share = assessments.overall(request.rubric());
        for (Criterion criterion : request.rubric().criteria()) {
            if (criterion.tests() && request.testsRan()) {
                // the teacher's tests grade it, and the settling of the verdict writes what they showed
                continue;
            }
            Aspect aspect = Aspect.of(criterion);
            Assessment assessment = assessments.of(aspect);
            if (assessment == null || assessment.share() == null) {
                boolean unknown = assessment == null;
                double used = unknown ? share : 0;
                scores.add(new Score(
                        criterion.id(),
                        (int) Math.round(used * criterion.maxPoints()),
                        assessment == null
                                ? "I have no rule to judge “" + Place.shorten(criterion.title()) + "” by, so it gets"
                                        + " the share the criteria I can judge earned (" + Math.round(share * 100)
                                        + "%); the teacher's reading decides it."
                                : assessment.explanation()));
                flags.add(new Flag(
                        Flag.NOT_ASSESSED,
                        null,
                        null,
                        "“" + Place.shorten(criterion.title()) + "” (" + criterion.id() + ") could not be judged by"
                                + " rule; its points are a stand-in until the teacher reads the work."));
                continue;
            }
            scores.add(new Score(
                    criterion.id(),
                    (int) Math.round(assessment.share() * criterion.maxPoints()),
                    assessment.explanation()));
            if (aspect == Aspect.CORRECTNESS
                    && !measures.readable().isEmpty()
                    && assessment.unverified()
                    && unverified.isEmpty()) {
                unverified.add(new Flag(Flag.CORRECTNESS_UNVERIFIED, null, null, unverifiedMessage(measures)));
            }
            if (explained.add(aspect)) {
                assessment.observations().forEach(observation -> observations.add(observation.on(criterion.id())));
            }
        }
        flags.addAll(unverified);
        return Verdicts.settle(
                        request,
                        new Proposal(scores, observations, flags, INTRODUCTION, AnalysisWriter.write(measures)))
                .verdict();
    }

    /** Why the correctness of the work is an estimate, and what would make it more, in the teacher's terms. */
    private static String unverifiedMessage(Measures measures) {
        ReviewRequest request = measures.request();
        Prose.Judgement prose = measures.prose();
        if (prose != null) {
            return prose.modelUnavailable() != null
                    ? "This written answer's meaning was not judged (" + prose.modelUnavailable() + "): its"
                            + " points are a stand-in, at most " + Math.round(UNVERIFIED_CEILING * 100)
                            + "% of them; the"
                            + " teacher's reading decides."
                    : "There is no reference answer to compare this written answer with: whether it is right is the"
                            + " teacher's to judge, and until then it earns at most "
                            + Math.round(UNVERIFIED_CEILING * 100) + "% of the points. A reference answer on the"
                            + " homework would grade it by meaning.";
        }
        boolean program = request.submission().stream().anyMatch(Grader::isProgram)
                || request.solution().stream().anyMatch(Grader::isProgram);
        String basis = request.solution().isEmpty()
                ? "from what the task names"
                : "from its likeness to the reference solution";
        return "Nothing ran this work: its correctness is estimated " + basis + ", which earns at most "
                + Math.round(UNVERIFIED_CEILING * 100) + "% of the points."
                + (program
                        ? " Test files on the homework would grade it by what it does."
                        : " The teacher's reading decides whether it is right.");
    }

    /** Whether a file is a program's source, by its name. */
    static boolean isProgram(ReviewDocument document) {
        return isProgram(document.name());
    }

    /** Whether a file of this name is a program's source, by its extension (not prose, not data). */
    public static boolean isProgram(String fileName) {
        return PROGRAM.matcher(fileName).find();
    }

    /** The student's files with the lines addressed to the grader blanked, their numbers kept. */
    private static ReviewRequest withoutLines(ReviewRequest request, List<Attempt> attempts) {
        if (attempts.isEmpty()) {
            return request;
        }
        List<ReviewDocument> files = new ArrayList<>();
        for (ReviewDocument document : request.submission()) {
            Set<Integer> blanked = attempts.stream()
                    .filter(attempt -> attempt.place().file().equals(document.name()))
                    .map(attempt -> attempt.place().line())
                    .filter(line -> line > 0) // a file's name: nothing of its text to leave out
                    .collect(Collectors.toSet());
            if (blanked.isEmpty()) {
                files.add(document);
                continue;
            }
            List<String> lines = new ArrayList<>(document.text().lines().toList());
            blanked.stream().filter(line -> line <= lines.size()).forEach(line -> lines.set(line - 1, ""));
            files.add(new ReviewDocument(
                    document.name(),
                    document.contentType(),
                    String.join("\n", lines),
                    document.truncated(),
                    document.notOpened()));
        }
        return request.withSubmission(files);
    }

    /** What the grader measures of a homework, once, for every criterion. */
    record Measures(
            ReviewRequest request,
            List<Student> students,
            List<SourceFile> readable,
            List<SourceFile> reference,
            List<SourceFile> tasks,
            RestrictionRules rules,
            List<Outcome> outcomes,
            List<String> terms,
            List<String> covered,
            Similarity.@Nullable Result similarity,
            List<String> namedFiles,
            Prose.@Nullable Judgement prose) {

        static Measures of(ReviewRequest request, ProseMeaning meaning) {
            List<Student> students =
                    request.submission().stream().map(Grader::student).toList();
            List<SourceFile> readable = students.stream()
                    .filter(student -> student.status() == Status.READ)
                    .map(Student::source)
                    .toList();
            List<SourceFile> reference = readableFiles(request.solution());
            List<SourceFile> tasks = readableFiles(request.task());
            RestrictionRules rules = RestrictionParser.parse(readableFiles(request.restrictions()));
            List<String> terms = taskTerms(tasks);
            Set<String> submitted = wordsOf(readable);
            return new Measures(
                    request,
                    students,
                    readable,
                    reference,
                    tasks,
                    rules,
                    readable.isEmpty() ? List.of() : rules.check(readable),
                    terms,
                    terms.stream().filter(term -> found(term, submitted)).toList(),
                    reference.isEmpty() || readable.isEmpty() ? null : Similarity.compare(readable, reference),
                    Grader.namedFiles(tasks),
                    prose(request, meaning));
        }

        /** A written answer's judgement by meaning; null when the work is not prose. */
        private static Prose.@Nullable Judgement prose(ReviewRequest request, ProseMeaning meaning) {
            List<ReviewDocument> answer = opened(request.submission());
            List<ReviewDocument> reference = opened(request.solution());
            if (!Prose.isProse(answer, reference)) {
                return null;
            }
            return Prose.judge(meaning, joined(answer), joined(reference), joined(opened(request.task())));
        }

        private static List<ReviewDocument> opened(List<ReviewDocument> documents) {
            return documents.stream()
                    .filter(document -> document.opened() && !document.text().isBlank())
                    .toList();
        }

        private static String joined(List<ReviewDocument> documents) {
            return documents.stream().map(ReviewDocument::text).collect(Collectors.joining("\n\n"));
        }
    }

    /** What a criterion is about, as far as the grader can tell from its id, title and description. */
    enum Aspect {
        CORRECTNESS,
        RESTRICTIONS,
        COMPLETENESS,
        UNKNOWN;

        private static final Pattern RESTRICTION_WORDS = Pattern.compile(
                "(?i)restrict|\\brules?\\b|forbid|prohibit|constraint|allowed|\\bbann|must not|limitation");
        private static final Pattern COMPLETENESS_WORDS = Pattern.compile(
                "(?i)complete|\\bfiles?\\b|hand(?:s|ed|ing)? in|deliver|submitted|missing|required files");
        private static final Pattern CORRECTNESS_WORDS = Pattern.compile(
                "(?i)correct|solv|solution|\\btask|function|\\bworks?\\b|result|accura|logic|implement|output"
                        + "|requirement|answer|right");

        static Aspect of(Criterion criterion) {
            for (Aspect aspect : List.of(CORRECTNESS, RESTRICTIONS, COMPLETENESS)) {
                if (aspect.name().equalsIgnoreCase(criterion.id())) {
                    return aspect;
                }
            }
            String text = criterion.id() + " " + criterion.title() + " "
                    + (criterion.description() == null ? "" : criterion.description());
            if (RESTRICTION_WORDS.matcher(text).find()) {
                return RESTRICTIONS;
            }
            if (COMPLETENESS_WORDS.matcher(text).find()) {
                return COMPLETENESS;
            }
            if (CORRECTNESS_WORDS.matcher(text).find()) {
                return CORRECTNESS;
            }
            return UNKNOWN;
        }
    }

    /**
     * How well the work does on one aspect.
     *
     * @param share 0 to 1 of a criterion's points; {@code null} when there is nothing to judge it by
     * @param unverified whether the share is an estimate nothing checked (as correctness by likeness is)
     */
    private record Assessment(
            @Nullable Double share, String explanation, List<Finding> observations, boolean unverified) {

        Assessment(@Nullable Double share, String explanation, List<Finding> observations) {
            this(share, explanation, observations, true);
        }
    }

    /** An observation before it is given to a criterion. */
    private record Finding(
            Severity severity,
            @Nullable String file,
            @Nullable Integer line,
            String message) {

        static Finding whole(Severity severity, String message) {
            return new Finding(severity, null, null, message);
        }

        Observation on(String criterionId) {
            return new Observation(criterionId, severity, file, line, null, message);
        }
    }

    private record Assessments(Assessment correctness, Assessment restrictions, Assessment completeness) {

        static Assessments of(Measures measures) {
            return new Assessments(
                    Grader.correctness(measures), Grader.restrictions(measures), Grader.completeness(measures));
        }

        /** Aspect by aspect, the assessment that gives fewer points. */
        Assessments lower(Assessments other) {
            return new Assessments(
                    lower(correctness, other.correctness),
                    lower(restrictions, other.restrictions),
                    lower(completeness, other.completeness));
        }

        private static Assessment lower(Assessment one, Assessment other) {
            if (one.share() == null || other.share() == null) {
                return one.share() == null ? one : other;
            }
            return other.share() < one.share() ? other : one;
        }

        @Nullable
        Assessment of(Aspect aspect) {
            return switch (aspect) {
                case CORRECTNESS -> correctness;
                case RESTRICTIONS -> restrictions;
                case COMPLETENESS -> completeness;
                case UNKNOWN -> null;
            };
        }

        /**
         * The share of points the criteria the grader can judge earned, for the ones it cannot: by the rubric's
         * own weights, or by the default rubric's when none of its criteria can be judged.
         */
        double overall(Rubric rubric) {
            double earned = 0;
            double possible = 0;
            for (Rubric rubricOf : List.of(rubric, Rubric.DEFAULT)) {
                for (Criterion criterion : rubricOf.criteria()) {
                    Assessment assessment = of(Aspect.of(criterion));
                    if (assessment != null && assessment.share() != null) {
                        earned += assessment.share() * criterion.maxPoints();
                        possible += criterion.maxPoints();
                    }
                }
                if (possible > 0) {
                    return earned / possible;
                }
            }
            return 0;
        }
    }

    private static Assessment correctness(Measures measures) {
        List<Finding> found = new ArrayList<>();
        Similarity.Result similarity = measures.similarity();
        if (measures.readable().isEmpty()) {
            return new Assessment(0.0, "There is no readable work to judge.", found);
        }
        Prose.Judgement prose = measures.prose();
        if (prose != null) {
            return proseCorrectness(prose);
        }
        if (similarity != null) {
            int percent = similarity.percent();
            if (similarity.unrelated()) {
                found.add(Finding.whole(
                        Severity.CRITICAL,
                        "Your work uses none of the reference solution's "
                                + similarity.particular().size()
                                + " particular names, so it seems to be about something else."));
                return new Assessment(
                        0.0,
                        "Your work uses none of the names particular to the reference solution, so it is not"
                                + " the work the task asks for, whatever its similarity of " + percent + "%.",
                        found);
            }
            double share = UNVERIFIED_CEILING
                    * Math.clamp((percent - SIMILARITY_NONE) / (double) (SIMILARITY_FULL - SIMILARITY_NONE), 0, 1);
            Severity severity = percent >= SIMILARITY_FULL
                    ? Severity.INFO
                    : percent >= 50 ? Severity.MINOR : percent >= 20 ? Severity.MAJOR : Severity.CRITICAL;
            int missing = similarity.unmatched().size();
            found.add(Finding.whole(
                    severity,
                    "Your work is " + percent + "% similar to the reference solution"
                            + (missing == 0
                                    ? ", and every line of it has a counterpart in your work."
                                    : "; " + missing + " of its " + similarity.referenceLines() + " lines "
                                            + (missing == 1 ? "has" : "have")
                                            + " no counterpart in your work (the teacher can look them up).")));
            return new Assessment(
                    share,
                    "Your work is " + percent + "% like the reference solution (the same steps, whatever names you"
                            + " chose). Nothing ran your work, so that likeness is all I can go on, and it earns at"
                            + " most " + Math.round(UNVERIFIED_CEILING * 100) + "% of the points: "
                            + SIMILARITY_FULL + "% alike or more earns that much, " + SIMILARITY_NONE
                            + "% or less nothing. Try your work on the task's own examples to see that it works.",
                    found);
        }
        List<String> terms = measures.terms();
        if (terms.isEmpty()) {
            return new Assessment(
                    null,
                    "There is neither a reference solution nor anything the task names that I could look for,"
                            + " so I cannot tell whether your work solves the task: 0 points until the teacher"
                            + " reads it.",
                    found);
        }
        List<String> absent = terms.stream()
                .filter(term -> !measures.covered().contains(term))
                .toList();
        int covered = measures.covered().size();
        if (covered == 0) {
            found.add(Finding.whole(
                    Severity.CRITICAL,
                    "Your work uses none of what the task names (" + names(terms)
                            + "), so it seems to be about something else."));
        } else if (!absent.isEmpty()) {
            found.add(Finding.whole(
                    Severity.MAJOR, "The task names " + names(absent) + ", which your work does not use."));
        }
        double share = UNVERIFIED_CEILING * covered / terms.size();
        return new Assessment(
                share,
                "There is no reference solution, so I can only check that your work deals with what the task"
                        + " names: " + covered + " of its " + terms.size() + " key terms (" + names(terms)
                        + ") are in it. Nothing shows the work is right, so this criterion earns at most "
                        + Math.round(UNVERIFIED_CEILING * 100) + "% of its points.",
                found);
    }

    /**
     * A written answer's correctness by meaning: against the reference answer when there is one and a model to
     * compare with; otherwise whether it is about the task, and a middle share the teacher replaces.
     */
    private static Assessment proseCorrectness(Prose.Judgement prose) {
        List<Finding> found = new ArrayList<>();
        int ceiling = (int) Math.round(UNVERIFIED_CEILING * 100);
        Double toReference = prose.toReference();
        Double score = prose.score();
        if (prose.modelUnavailable() == null && toReference != null && score != null) {
            double share = Prose.share(score);
            Severity severity = share >= 0.9
                    ? Severity.INFO
                    : share >= 0.6 ? Severity.MINOR : share >= 0.3 ? Severity.MAJOR : Severity.CRITICAL;
            String points = prose.points() <= 1
                    ? ""
                    : " It makes " + prose.made() + " of the " + prose.points() + " points the reference answer"
                            + " makes"
                            + (prose.made() == prose.points() ? "." : "; look for what your answer leaves" + " out.");
            found.add(Finding.whole(
                    severity,
                    "Your answer is " + Math.round(score * 100) + "% like the reference answer in meaning and key"
                            + " words." + points));
            return new Assessment(
                    share,
                    "I compared your answer with the reference answer by meaning, not only by their words, with a"
                            + " small sentence-similarity model, and by the key words it has beyond the task's own:"
                            + " together " + Math.round(score * 100) + "% alike, where "
                            + Math.round(Prose.FULL * 100) + "% or more earns every point and "
                            + Math.round(Prose.NONE * 100) + "% or less none (a scale set on human graders' scores)."
                            + " A model of meaning can miss a wrong detail said in the right words; the teacher may"
                            + " change the points.",
                    found,
                    false);
        }
        Double toTask = prose.toTask();
        if (prose.modelUnavailable() == null && toTask != null && toTask < Prose.ON_TOPIC) {
            found.add(Finding.whole(
                    Severity.CRITICAL,
                    "Your answer seems to be about something else: its meaning is far from the task's ("
                            + Math.round(toTask * 100) + "% alike)."));
            return new Assessment(
                    0.0,
                    "There is no reference answer, and your answer's meaning is far from what the task asks ("
                            + Math.round(toTask * 100) + "% alike), so it earns nothing here until the teacher"
                            + " reads it.",
                    found);
        }
        String why = prose.modelUnavailable() != null
                ? "I could not compare your answer's meaning with anything (" + prose.modelUnavailable() + ")"
                : toReference == null && toTask != null
                        ? "There is no reference answer to compare with; your answer is about the task ("
                                + Math.round(toTask * 100) + "% alike in meaning)"
                        : "There is neither a reference answer nor a task to compare with";
        return new Assessment(
                Prose.UNJUDGED_SHARE,
                why + ", but whether it is right is the teacher's to judge: it gets "
                        + Math.round(Prose.UNJUDGED_SHARE * 100) + "% of the points as a stand-in (at most "
                        + ceiling + "% while unverified) until the teacher reads it.",
                found);
    }

    private static Assessment restrictions(Measures measures) {
        List<Finding> found = new ArrayList<>();
        int units = 0;
        int broken = 0;
        for (Outcome outcome : measures.outcomes()) {
            Place source = outcome.rule().source();
            String rule = "“" + Place.shorten(source.text()) + "” (" + source.file() + ", line " + source.line() + ")";
            if (outcome.rule().polarity() == RestrictionRules.Polarity.FORBIDDEN) {
                units++;
                if (!outcome.hits().isEmpty()) {
                    broken++;
                    outcome.hits().stream()
                            .limit(MAX_HITS)
                            .forEach(hit -> found.add(
                                    new Finding(Severity.MAJOR, hit.file(), hit.line(), "Breaks " + rule + ".")));
                    if (outcome.hits().size() > MAX_HITS) {
                        found.add(Finding.whole(
                                Severity.MAJOR,
                                "Breaks " + rule + " in " + (outcome.hits().size() - MAX_HITS) + " more places."));
                    }
                }
            } else {
                units += outcome.rule().checks().size();
                for (Check missing : outcome.missing()) {
                    broken++;
                    found.add(Finding.whole(
                            Severity.MAJOR, "Lacks " + missing.describe() + ", which " + rule + " requires."));
                }
            }
        }
        int uncheckable = measures.rules().uncheckable().size();
        String cannot = uncheckable == 0
                ? ""
                : uncheckable == 1
                        ? " One rule I cannot check (listed below) is left to the teacher."
                        : " " + uncheckable + " rules I cannot check (listed below) are left to the teacher.";
        if (measures.readable().isEmpty()) {
            return new Assessment(0.0, "There is no readable work to check the rules against.", found);
        }
        if (units == 0) {
            return new Assessment(
                    1.0,
                    (measures.request().restrictions().isEmpty()
                                    ? "The assignment has no restriction files, so there is no rule to break."
                                    : "The restriction files state no rule I can check.")
                            + cannot,
                    found);
        }
        return new Assessment(
                (units - broken) / (double) units,
                (broken == 0
                                ? (units == 1
                                        ? "Your work keeps the one check of the rules."
                                        : "Your work keeps all " + units + " checks of the rules.")
                                : "Your work keeps " + (units - broken) + " of the " + units
                                        + (units == 1 ? " check" : " checks") + " of the rules;"
                                        + " each broken one costs its share.")
                        + cannot,
                found);
    }

    private static Assessment completeness(Measures measures) {
        List<Finding> found = new ArrayList<>();
        for (Student student : measures.students()) {
            ReviewDocument document = student.document();
            if (student.status() == Status.EMPTY) {
                found.add(new Finding(Severity.MINOR, document.name(), null, document.name() + " is empty."));
            } else if (student.status() == Status.READ && document.truncated()) {
                found.add(new Finding(
                        Severity.INFO,
                        document.name(),
                        null,
                        document.name() + " was read up to the size budget; the rest was not reviewed."));
            }
        }
        if (measures.readable().isEmpty()) {
            return new Assessment(0.0, "No file of the submission has text I could read.", found);
        }
        List<String> named = measures.namedFiles();
        if (named.isEmpty()) {
            return new Assessment(
                    1.0,
                    measures.readable().size() == measures.students().size()
                            ? "The task names no file to hand in, and every file you handed in could be read."
                            : "The task names no file to hand in, and "
                                    + measures.readable().size() + " of the "
                                    + measures.students().size() + " files you handed in could be read.",
                    found);
        }
        int handedIn = 0;
        for (String name : named) {
            Student student = submittedAs(name, measures.students());
            if (student == null) {
                found.add(Finding.whole(Severity.MAJOR, name + ", which the task names, was not handed in."));
            } else if (student.status() == Status.EMPTY) {
                found.removeIf(finding -> student.document().name().equals(finding.file()));
                found.add(new Finding(
                        Severity.MAJOR, student.document().name(), null, name + ", which the task names, is empty."));
            } else {
                handedIn++;
            }
        }
        String names = String.join(", ", named);
        return new Assessment(
                handedIn / (double) named.size(),
                named.size() == 1
                        ? "The file the task names (" + names + ") is " + (handedIn == 1 ? "" : "not ")
                                + "handed in with text in it."
                        : handedIn + " of the " + named.size() + " files the task names (" + names + ") are handed in"
                                + " with text in them.",
                found);
    }

    // --- reading

    private static Student student(ReviewDocument document) {
        if (!document.opened()) {
            return new Student(document, Status.NOT_OPENED, null);
        }
        if (document.text().isBlank()) {
            return new Student(document, Status.EMPTY, null);
        }
        return new Student(document, Status.READ, SourceFile.read(document));
    }

    private static List<SourceFile> readableFiles(List<ReviewDocument> documents) {
        return documents.stream()
                .filter(document -> document.opened() && !document.text().isBlank())
                .map(SourceFile::read)
                .toList();
    }

    /**
     * The task's key terms, at most {@value #MAX_TASK_TERMS}: the names it gives in code form (backquoted, or
     * looking like code: {@code add_fractions}, {@code addFractions}, {@code gcd(}); only a task with none of
     * those (an essay, say) gets its most frequent words instead, since a code task's prose says little about
     * the code.
     */
    static List<String> taskTerms(List<SourceFile> tasks) {
        Set<String> terms = new LinkedHashSet<>();
        StringBuilder prose = new StringBuilder();
        for (SourceFile task : tasks) {
            String text = String.join("\n", task.lines());
            prose.append(text).append('\n');
            Matcher quoted = BACKQUOTED.matcher(text);
            while (quoted.find()) {
                String term = quoted.group(1).strip();
                if (term.matches("[\\p{L}_][\\p{L}\\p{N}_]*")) {
                    terms.add(term.toLowerCase(Locale.ROOT));
                }
            }
        }
        Matcher identifier = IDENTIFIER.matcher(prose);
        while (identifier.find()) {
            String term = identifier.group(1).toLowerCase(Locale.ROOT);
            if (!TASK_WORDS.contains(term) && term.length() > 1) {
                terms.add(term);
            }
        }
        if (terms.isEmpty()) {
            terms.addAll(frequentWords(prose.toString(), WORD));
        }
        if (terms.isEmpty()) {
            // "Add 1/2 and 1/3.": a short task may have no longer word, and its "add" is still what it asks
            terms.addAll(frequentWords(prose.toString(), SHORT_WORD));
        }
        return terms.stream().limit(MAX_TASK_TERMS).toList();
    }

    /** Words of four letters or more, neither everyday nor task vocabulary, most frequent first, then first seen. */
    private static List<String> frequentWords(String text, Pattern wordPattern) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        Matcher matcher = wordPattern.matcher(text.toLowerCase(Locale.ROOT));
        while (matcher.find()) {
            String word = matcher.group();
            if (!Stopwords.EVERYDAY.contains(word) && !TASK_WORDS.contains(word)) {
                counts.merge(word, 1, Integer::sum);
            }
        }
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        entries.sort(Map.Entry.<String, Integer>comparingByValue().reversed()); // stable: ties keep first seen
        return entries.stream().limit(MAX_TASK_TERMS).map(Map.Entry::getKey).toList();
    }

    private static Set<String> wordsOf(List<SourceFile> files) {
        Set<String> words = new HashSet<>();
        for (SourceFile file : files) {
            for (Token token : file.tokens()) {
                if (token.kind() == Kind.WORD) {
                    words.add(token.text());
                }
            }
        }
        return words;
    }

    /** A term is in the submission as a word, or in its singular or plural form. */
    private static boolean found(String term, Set<String> words) {
        String singular = term.endsWith("s") ? term.substring(0, term.length() - 1) : term;
        return words.contains(term) || words.contains(singular) || words.contains(singular + "s");
    }

    /** File names the task asks for by name ({@code submit fractions.py}). */
    private static List<String> namedFiles(List<SourceFile> tasks) {
        Set<String> names = new LinkedHashSet<>();
        for (SourceFile task : tasks) {
            for (String line : task.lines()) {
                Matcher matcher = NAMED_FILE.matcher(line);
                while (matcher.find()) {
                    names.add(matcher.group(1));
                }
            }
        }
        return List.copyOf(names);
    }

    // --- grading

    /** The first few names, in code, with how many more there are. */
    static String names(List<String> names) {
        String shown = names.stream().limit(MAX_NAMES).map(Place::code).collect(Collectors.joining(", "));
        return names.size() > MAX_NAMES ? shown + " and " + (names.size() - MAX_NAMES) + " more" : shown;
    }

    static @Nullable Student submittedAs(String name, List<Student> students) {
        return students.stream()
                .filter(student -> baseName(student.document().name()).equalsIgnoreCase(name))
                .findFirst()
                .orElse(null);
    }

    private static String baseName(String name) {
        String path = name == null ? "" : name.replace('\\', '/');
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
