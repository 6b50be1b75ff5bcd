package com.chatreview.assistant;

import com.chatreview.assistant.Conversation.ContextDocument;
import com.chatreview.grading.Place;
import com.chatreview.grading.ProseMeaning;
import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.RuleOutcome;
import com.chatreview.grading.Verdict;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.grading.Verdict.Finding;
import com.chatreview.grading.Verdict.Flag;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The offline assistant's answers in a review chat, taken from the review's verdict (docs/api.md, The review): why the grade
 * is what it is, what to change first, what the review found in a file or at a line, which rules held and which
 * broke, one criterion's points; anything else gets what it can answer and three example questions. It reads the
 * question for words of these kinds (in English, German, French, Spanish, Portuguese, Italian and Russian) and
 * answers every kind it finds, in that order. It never has the reference solution: the verdict and the chat's
 * context leave it out.
 */
final class ReviewQuestions {

    private static final int MAX_STEPS = 3;
    private static final int MAX_LISTED = 8;

    private static final Pattern GRADE = words("why|grade|graded|mark|marks|score|scored|points?|explain|reason"
            + "|warum|wieso|note|punkte|bewertung|pourquoi|notée?|barème|por ?qu[eé]|calificaci[oó]n|nota|puntos"
            + "|porque|pontos|perch[eé]|voto|punti|почему|оценк\\p{L}*|балл\\p{L}*");
    private static final Pattern IMPROVE = words("change|improve|fix|better|next|first|should i|how can i|higher"
            + "|raise|wrong|mistakes?|errors?|problems?|verbesser\\p{L}*|ändern|fehler|améliorer|changer|corriger"
            + "|erreurs?|mejorar|cambiar|arreglar|errores|corregir|melhorar|mudar|errori|migliorare|correggere"
            + "|исправ\\p{L}*|улучш\\p{L}*|измен\\p{L}*|ошибк\\p{L}*");
    private static final Pattern RULES = words("rules?|restrictions?|restricted|forbidden|allowed|prohibited"
            + "|constraints?|break|broke|broken|regeln?|verboten|erlaubt|règles?|interdit|permis|reglas?"
            + "|prohibido|permitido|regras?|proibido|regole|vietato|правил\\p{L}*|запрещ\\p{L}*|ограничен\\p{L}*");
    private static final Pattern REFERENCE = words("reference|model solution|sample solution|the solution"
            + "|correct solution|correct answer|right answer|answer key|musterlösung|lösung|solution de référence"
            + "|corrigé|solución|solução|soluzione|эталон\\p{L}*|решени\\p{L}*");
    private static final Pattern TESTS = words("tests?|pass|passes|passed|passing|fail|fails|failed|failing"
            + "|failures?|tests?s|bestanden|bestehen|fehlgeschlagen|réussi\\p{L}*|échou\\p{L}*|pruebas?|pasa\\p{L}*"
            + "|falla\\p{L}*|testes?|passa\\p{L}*|falh\\p{L}*|тест\\p{L}*");
    private static final Pattern ANY_TEST = words("tests?|testes?|pruebas?|тест\\p{L}*");
    /** A line of the tests' document: {@code - name: failed: message (file.py, line 3)}. */
    private static final Pattern TEST_LINE =
            Pattern.compile("^- (.+?): (passed|failed|error|skipped)(?:: (.*?))?(?: \\(([^,()]+), line (\\d+)\\))?$");

    private static final Pattern LINE = Pattern.compile("(?iu)(?:\\blines?|\\bzeile|\\bligne|\\bl[ií]nea"
            + "|\\blinha|\\briga|строк\\p{L}*)\\s*(?:no\\.?\\s*|nr\\.?\\s*|n[°º]\\s*|#\\s*)?(\\d{1,6})"
            + "|[\\w.-]+\\.\\w{1,5}:(\\d{1,6})");

    private ReviewQuestions() {}

    private static Pattern words(String alternatives) {
        return Pattern.compile("(?iu)(?<![\\p{L}\\p{N}])(?:" + alternatives + ")(?![\\p{L}\\p{N}])");
    }

    /**
     * A question at least this close in meaning to a criterion (its id and title) or a finding, and closer to it than
     * to any other by {@link #CLEARLY}, is about it, when no word of the question named anything of the review (the
     * sentence model's cosine: "why is my answer not complete?" and "completeness: Hands in what was asked" 0.43, a
     * question about something else under 0.1).
     */
    static final double ABOUT = 0.25;

    static final double CLEARLY = 0.05;

    /** The answer to {@code question}, from the review and the chat's context (restrictions, the student's files). */
    static String answer(String question, Verdict review, List<ContextDocument> context) {
        return answer(question, review, context, ProseMeaning.NONE);
    }

    /**
     * The same, and a question none of whose words matched is matched by meaning against the review's criteria and
     * findings ("why is my answer not complete?" is about completeness), with {@code meaning}'s model.
     */
    static String answer(String question, Verdict review, List<ContextDocument> context, ProseMeaning meaning) {
        String asked = question.strip();
        List<ContextDocument> files = ofKind(context, "submission");
        List<String> paragraphs = new ArrayList<>();
        boolean reference = REFERENCE.matcher(asked).find();
        if (reference) {
            paragraphs.add(reference(review));
        }
        Integer line = line(asked);
        List<String> namedFiles = files.stream()
                .map(ContextDocument::name)
                .filter(name -> asked.toLowerCase(Locale.ROOT).contains(name.toLowerCase(Locale.ROOT)))
                .toList();
        List<ContextDocument> tests = ofKind(context, "tests");
        boolean aboutTests = TESTS.matcher(asked).find()
                && (!tests.isEmpty() || ANY_TEST.matcher(asked).find());
        List<TestLine> named = tests.isEmpty() ? List.of() : testsNamed(asked, tests.getFirst());
        if (aboutTests || !named.isEmpty()) {
            paragraphs.add(tests(tests, named));
        }
        boolean gradeAsked = GRADE.matcher(asked).find() && !reference && named.isEmpty();
        if (gradeAsked) {
            paragraphs.add(grade(review));
        }
        List<CriterionScore> criteria = criteriaNamed(asked, review);
        if (!criteria.isEmpty() && paragraphs.isEmpty()) {
            paragraphs.add(criteria(criteria, review));
        }
        if (line != null) {
            paragraphs.add(line(line, namedFiles, files, review));
        } else if (!namedFiles.isEmpty()) {
            namedFiles.forEach(name -> paragraphs.add(file(name, review)));
        }
        if (RULES.matcher(asked).find()) {
            paragraphs.add(rules(context));
        }
        if (IMPROVE.matcher(asked).find()) {
            paragraphs.add(improve(review));
        }
        if (paragraphs.isEmpty() || (gradeAsked && paragraphs.size() == 1)) {
            // nothing named, or only a "why": what the question is about in meaning, after the grade if asked
            byMeaning(asked, review, meaning).ifPresent(paragraphs::add);
        }
        if (paragraphs.isEmpty()) {
            paragraphs.add(help(review, files));
        }
        return String.join("\n\n", paragraphs);
    }

    private record TestLine(
            String name,
            String outcome,
            @Nullable String message,
            @Nullable String place) {}

    private static List<TestLine> testLines(ContextDocument tests) {
        List<TestLine> lines = new ArrayList<>();
        for (String line : tests.content().split("\n")) {
            Matcher matcher = TEST_LINE.matcher(line);
            if (matcher.matches()) {
                lines.add(new TestLine(
                        matcher.group(1),
                        matcher.group(2),
                        matcher.group(3),
                        matcher.group(4) == null ? null : matcher.group(4) + ", line " + matcher.group(5)));
            }
        }
        return lines;
    }

    /** The tests the question names, the longest names first so that {@code test_add} does not stand for {@code test_add_more}. */
    private static List<TestLine> testsNamed(String question, ContextDocument tests) {
        String asked = question.toLowerCase(Locale.ROOT);
        List<TestLine> named = new ArrayList<>();
        List<TestLine> lines = new ArrayList<>(testLines(tests));
        lines.sort(Comparator.comparing((TestLine line) -> line.name().length()).reversed());
        for (TestLine line : lines) {
            String name = line.name().toLowerCase(Locale.ROOT);
            String method = name.substring(name.lastIndexOf('.') + 1);
            boolean mentioned = asked.contains(name) || (method.length() >= 4 && asked.contains(method));
            if (mentioned
                    && named.stream()
                            .noneMatch(other ->
                                    other.name().toLowerCase(Locale.ROOT).contains(method))) {
                named.add(line);
            }
        }
        return named;
    }

    /** What the teacher's tests say: about the tests named, or all of them. */
    private static String tests(List<ContextDocument> tests, List<TestLine> named) {
        if (tests.isEmpty()) {
            return "This homework has no tests of the teacher's, so your work was not run: the review judged it by"
                    + " the rules and measures above.";
        }
        if (!named.isEmpty()) {
            return named.stream().map(ReviewQuestions::testAnswer).collect(Collectors.joining("\n"));
        }
        ContextDocument document = tests.getFirst();
        String summary = document.content().lines().findFirst().orElse("");
        List<TestLine> failing = testLines(document).stream()
                .filter(line ->
                        line.outcome().equals("failed") || line.outcome().equals("error"))
                .toList();
        if (failing.isEmpty()) {
            return summary;
        }
        StringBuilder text = new StringBuilder(summary).append(" These do not:\n");
        failing.stream().limit(MAX_LISTED).forEach(line -> text.append("\n- ").append(testAnswer(line)));
        if (failing.size() > MAX_LISTED) {
            text.append("\n- and ").append(failing.size() - MAX_LISTED).append(" more.");
        }
        return text.append("\n\nAsk about one by name (“Why does ")
                .append(code(failing.getFirst().name()))
                .append(" fail?”) to see what it found.")
                .toString();
    }

    private static String testAnswer(TestLine line) {
        String name = code(line.name());
        return switch (line.outcome()) {
            case "passed" -> name + " passes.";
            case "skipped" -> name + " was skipped" + (line.message() == null ? "." : ": " + line.message() + ".");
            default ->
                name
                        + (line.outcome().equals("error") ? " could not run" : " fails")
                        + (line.message() == null ? "" : ": " + code(line.message()))
                        + (line.place() == null ? "." : ". The failure points to " + line.place() + ".");
        };
    }

    private static String grade(Verdict review) {
        int percent = review.maxPoints() == 0 ? 0 : review.points() * 100 / review.maxPoints();
        StringBuilder text = new StringBuilder("Your grade is ")
                .append(review.grade())
                .append(": ")
                .append(review.points())
                .append(" of ")
                .append(review.maxPoints())
                .append(" points (")
                .append(percent)
                .append("%). ")
                .append(band(review.grade()))
                .append(" The points by criterion:\n");
        for (CriterionScore criterion : review.criteria()) {
            text.append("\n- ").append(criterion(criterion));
        }
        List<CriterionScore> lost = review.criteria().stream()
                .filter(criterion -> criterion.points() < criterion.maxPoints())
                .sorted(Comparator.comparingInt(
                        (CriterionScore criterion) -> criterion.points() - criterion.maxPoints()))
                .toList();
        if (!lost.isEmpty()) {
            CriterionScore most = lost.getFirst();
            text.append("\n\nThe most points were lost on **")
                    .append(most.title())
                    .append("** (")
                    .append(most.maxPoints() - most.points())
                    .append(").");
        }
        return text.toString();
    }

    private static String band(String grade) {
        return switch (grade) {
            case "A" -> "An A takes 90% or more.";
            case "B" -> "A B takes 80% to 89%; an A, 90%.";
            case "C" -> "A C takes 70% to 79%; a B, 80%.";
            case "D" -> "A D takes 60% to 69%; a C, 70%.";
            case "E" -> "An E takes 50% to 59%; a D, 60%.";
            default -> "An F is below 50%; an E takes 50%.";
        };
    }

    private static String criterion(CriterionScore criterion) {
        return "**" + criterion.title() + "**: " + criterion.points() + " of " + criterion.maxPoints() + ". "
                + criterion.explanation();
    }

    private static String criteria(List<CriterionScore> criteria, Verdict review) {
        List<String> lines = new ArrayList<>();
        for (CriterionScore criterion : criteria) {
            lines.add(criterion(criterion));
            review.findings().stream()
                    .filter(finding -> criterion.criterionId().equals(finding.criterionId()))
                    .limit(MAX_LISTED)
                    .forEach(finding -> lines.add("  - " + finding(finding)));
        }
        return lines.stream()
                .map(line -> line.startsWith("  ") ? line : "- " + line)
                .collect(Collectors.joining("\n"));
    }

    /** The criteria whose id or title the question names. */
    private static List<CriterionScore> criteriaNamed(String question, Verdict review) {
        String asked = question.toLowerCase(Locale.ROOT);
        return review.criteria().stream()
                .filter(criterion -> asked.contains(criterion.criterionId().toLowerCase(Locale.ROOT))
                        || asked.contains(criterion.title().toLowerCase(Locale.ROOT)))
                .toList();
    }

    /**
     * The criterion or finding the question is closest to in meaning, answered as if the question had named it; empty
     * when none is {@value #ABOUT} close, or no model runs.
     */
    private static Optional<String> byMeaning(String question, Verdict review, ProseMeaning meaning) {
        List<String> about = new ArrayList<>();
        for (CriterionScore criterion : review.criteria()) {
            about.add(criterion.criterionId() + ": " + criterion.title());
        }
        for (Finding finding : review.findings()) {
            about.add(finding.message());
        }
        if (about.isEmpty()) {
            return Optional.empty();
        }
        Optional<double[][]> judged = meaning.similarities(List.of(question), about);
        if (judged.isEmpty()) {
            return Optional.empty();
        }
        double[] closeness = judged.get()[0];
        int best = 0;
        for (int i = 1; i < closeness.length; i++) {
            if (closeness[i] > closeness[best]) {
                best = i;
            }
        }
        double runnerUp = -1;
        for (int i = 0; i < closeness.length; i++) {
            if (i != best) {
                runnerUp = Math.max(runnerUp, closeness[i]);
            }
        }
        if (closeness[best] < ABOUT || closeness[best] - runnerUp < CLEARLY) {
            return Optional.empty();
        }
        int criteria = review.criteria().size();
        return Optional.of(
                best < criteria
                        ? criteria(List.of(review.criteria().get(best)), review)
                        : finding(review.findings().get(best - criteria)));
    }

    private static String improve(Verdict review) {
        List<Finding> steps = review.findings().stream()
                .filter(finding -> finding.severity() != Verdict.Severity.INFO)
                // the most serious first and, of equal weight, those on a line: they say where to start
                .sorted(Comparator.comparing(Finding::severity)
                        .reversed()
                        .thenComparing(finding -> finding.line() == null))
                .limit(MAX_STEPS)
                .toList();
        if (steps.isEmpty()) {
            List<CriterionScore> short_ = review.criteria().stream()
                    .filter(criterion -> criterion.points() < criterion.maxPoints())
                    .toList();
            if (short_.isEmpty()) {
                return "There is nothing to change for the grade: every criterion has all its points.";
            }
            return "The review found nothing in particular to change; the points you miss are these:\n\n"
                    + short_.stream()
                            .map(criterion -> "- " + criterion(criterion))
                            .collect(Collectors.joining("\n"));
        }
        StringBuilder text = new StringBuilder("What to change first, the most serious first:\n");
        for (int i = 0; i < steps.size(); i++) {
            Finding finding = steps.get(i);
            text.append("\n").append(i + 1).append(". ").append(finding(finding));
            title(review, finding.criterionId())
                    .ifPresent(title -> text.append(" (").append(title).append(")"));
        }
        long more = review.findings().stream()
                        .filter(finding -> finding.severity() != Verdict.Severity.INFO)
                        .count()
                - steps.size();
        if (more > 0) {
            text.append("\n\nThe review lists ").append(more).append(more == 1 ? " more finding." : " more findings.");
        }
        return text.toString();
    }

    private static Optional<String> title(Verdict review, String criterionId) {
        return review.criteria().stream()
                .filter(criterion -> criterion.criterionId().equals(criterionId))
                .map(CriterionScore::title)
                .findFirst();
    }

    /** {@code major, main.py:3 `return eval(x)`: Breaks “Do not use eval”.} */
    private static String finding(Finding finding) {
        StringBuilder text = new StringBuilder(finding.severity().value());
        if (finding.file() != null) {
            text.append(", ").append(finding.file());
            if (finding.line() != null) {
                text.append(":").append(finding.line());
                if (!finding.line().equals(finding.endLine())) {
                    text.append("-").append(finding.endLine());
                }
            }
        }
        if (finding.quote() != null && !finding.quote().isBlank()) {
            text.append(" ").append(code(finding.quote().lines().findFirst().orElse("")));
        }
        return text.append(": ").append(finding.message()).toString();
    }

    private static String line(int number, List<String> namedFiles, List<ContextDocument> files, Verdict review) {
        List<ContextDocument> candidates = namedFiles.isEmpty()
                ? files
                : files.stream()
                        .filter(file -> namedFiles.contains(file.name()))
                        .toList();
        List<Finding> there = review.findings().stream()
                .filter(finding -> finding.line() != null
                        && finding.line() <= number
                        && number <= Objects.requireNonNull(finding.endLine(), "a finding with a line has its end line")
                        && candidates.stream().anyMatch(file -> file.name().equals(finding.file())))
                .toList();
        List<Flag> flags = review.flags().stream()
                .filter(flag -> flag.line() != null
                        && flag.line() == number
                        && candidates.stream().anyMatch(file -> file.name().equals(flag.file())))
                .toList();
        StringBuilder text = new StringBuilder();
        if (!there.isEmpty()) {
            text.append("At line ").append(number).append(" the review found:\n");
            there.forEach(finding -> text.append("\n- ").append(finding(finding)));
        }
        for (Flag flag : flags) {
            text.append(text.isEmpty() ? "" : "\n\n")
                    .append(flag.file())
                    .append(":")
                    .append(flag.line())
                    .append(" was flagged for the teacher (")
                    .append(flag.kind())
                    .append("): ")
                    .append(flag.message());
        }
        if (!text.isEmpty()) {
            return text.toString();
        }
        List<String> quoted = new ArrayList<>();
        for (ContextDocument file : candidates) {
            List<String> lines = file.content().lines().toList();
            if (number >= 1 && number <= lines.size()) {
                quoted.add("line " + number + " of " + file.name() + " is " + code(lines.get(number - 1)));
            } else {
                quoted.add(file.name() + " has " + lines.size() + (lines.size() == 1 ? " line" : " lines"));
            }
        }
        return "The review found nothing at line " + number
                + (quoted.isEmpty() ? "." : ": " + String.join("; ", quoted) + ".");
    }

    private static String file(String name, Verdict review) {
        List<Finding> inFile = review.findings().stream()
                .filter(finding -> name.equals(finding.file()))
                .toList();
        List<Flag> flagged =
                review.flags().stream().filter(flag -> name.equals(flag.file())).toList();
        if (inFile.isEmpty() && flagged.isEmpty()) {
            return "The review found nothing in particular in " + name + ".";
        }
        StringBuilder text = new StringBuilder("In " + name + " the review found:\n");
        inFile.stream().limit(MAX_LISTED).forEach(finding -> text.append("\n- ").append(finding(finding)));
        flagged.stream()
                .limit(MAX_LISTED)
                .forEach(flag -> text.append("\n- flagged for the teacher (")
                        .append(flag.kind())
                        .append(flag.line() == null ? "" : ", line " + flag.line())
                        .append("): ")
                        .append(flag.message()));
        return text.toString();
    }

    private static String rules(List<ContextDocument> context) {
        List<ContextDocument> restrictions = ofKind(context, "restriction");
        if (restrictions.isEmpty()) {
            return "The assignment has no restriction files, so there is no rule to break.";
        }
        List<RuleOutcome> outcomes =
                RuleOutcome.check(documents(restrictions), documents(ofKind(context, "submission")));
        if (outcomes.isEmpty()) {
            return "The restriction files state no rules.";
        }
        StringBuilder text = new StringBuilder("The rules of the restriction files:\n");
        for (RuleOutcome outcome : outcomes) {
            text.append("\n- ")
                    .append(
                            switch (outcome.state()) {
                                case BROKEN -> "Broken";
                                case KEPT -> "Kept";
                                case CANNOT_CHECK -> "Not checked by rule (the teacher judges it)";
                            })
                    .append(": “")
                    .append(outcome.rule())
                    .append("” (")
                    .append(outcome.file())
                    .append(", line ")
                    .append(outcome.line())
                    .append(")");
            if (!outcome.where().isEmpty()) {
                text.append(": ").append(String.join("; ", outcome.where()));
            }
        }
        return text.toString();
    }

    private static String reference(Verdict review) {
        String closeness = review.criteria().stream()
                .filter(criterion -> criterion.explanation().contains("reference solution"))
                .map(CriterionScore::explanation)
                .findFirst()
                .orElse("");
        return "I cannot show or describe the reference solution: it is the teacher's, and this chat is yours."
                + (closeness.isEmpty() ? "" : " What I can say is how close your work is: " + closeness);
    }

    private static String help(Verdict review, List<ContextDocument> files) {
        Set<String> examples = new LinkedHashSet<>();
        examples.add("Why did I get " + ("AEF".contains(review.grade()) ? "an " : "a ") + review.grade() + "?");
        examples.add("What should I change first?");
        review.findings().stream()
                .filter(finding -> finding.line() != null)
                .findFirst()
                .ifPresentOrElse(
                        finding ->
                                examples.add("What is wrong on line " + finding.line() + " of " + finding.file() + "?"),
                        () -> examples.add(
                                files.isEmpty()
                                        ? "Did I break any rule?"
                                        : "What did you find in "
                                                + files.getFirst().name() + "?"));
        return "I can answer questions about this review: why the grade is " + review.grade()
                + " (the points by criterion), what to change first, what the review found in a file or at a line,"
                + " which of the teacher's tests fail and why, and which rules held and which broke. For example:\n\n"
                + examples.stream().map(example -> "- “" + example + "”").collect(Collectors.joining("\n"));
    }

    private static @Nullable Integer line(String question) {
        Matcher matcher = LINE.matcher(question);
        if (!matcher.find()) {
            return null;
        }
        return Integer.valueOf(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
    }

    private static List<ContextDocument> ofKind(List<ContextDocument> context, String kind) {
        return context.stream().filter(document -> kind.equals(document.kind())).toList();
    }

    private static List<ReviewDocument> documents(List<ContextDocument> context) {
        return context.stream()
                .filter(document -> !isNotOpened(document))
                .map(document -> ReviewDocument.text(document.name(), "text/plain", document.content()))
                .toList();
    }

    /** The review chat's context names a file it could not read as "(why)" instead of its text. */
    private static boolean isNotOpened(ContextDocument document) {
        String content = document.content().strip();
        return content.startsWith("(") && content.endsWith(")") && !content.contains("\n");
    }

    /** A quoted line as every review quotes one (the analysis's pointers included). */
    private static String code(String text) {
        return Place.code(Place.shorten(text));
    }
}
