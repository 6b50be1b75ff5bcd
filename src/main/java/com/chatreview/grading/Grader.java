package com.chatreview.grading;

import com.chatreview.grading.GraderAddressed.Finding;
import com.chatreview.grading.RestrictionRules.Check;
import com.chatreview.grading.RestrictionRules.Outcome;
import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.SourceFile.Kind;
import com.chatreview.grading.SourceFile.Token;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The rule-based review of a homework: what the task asks, which files there are, which restriction rules the
 * submission breaks, how close it is to the reference solution and what in it is addressed to the grader, then
 * a grade that follows from these by the rubric of {@code docs/review-rubric.md}. No model and no randomness:
 * the same request gives the same text and the same grade.
 */
public final class Grader {

    static final String INTRODUCTION = "I am this service's offline reviewer, not a language model: I review by"
            + " fixed rules you can check by hand (the restriction files, a similarity to the reference solution,"
            + " which files are there), so I can point to lines, but I cannot tell whether the work is right in"
            + " ways these rules do not measure.";

    static final String GRADES = "ABCDEF";
    /** The lowest similarity (percent) of each letter A to E; below the last is F. */
    static final int[] SIMILARITY_BANDS = {80, 50, 35, 20, 10};
    /** Without a reference: the lowest task-term coverage (percent) of each letter B to E; below the last is F. */
    static final int[] COVERAGE_BANDS = {80, 60, 40, 20};

    private static final int MAX_TASK_FILES = 3;
    private static final int MAX_TASK_LINES = 2;
    private static final int MAX_TASK_TERMS = 8;
    private static final int MAX_FILES = 20;
    private static final int MAX_HITS = 3;
    private static final int MAX_RULES_LISTED = 10;
    private static final int MAX_UNCHECKABLE = 5;
    private static final int MAX_UNMATCHED_LINES = 40;
    private static final int MAX_FINDINGS = 5;
    private static final int MAX_NAMES = 6;

    private static final Pattern HEADING = Pattern.compile("^\\s*(?:#{1,6}\\s|={3,}|-{3,}).*");
    private static final Pattern WORD = Pattern.compile("\\p{L}[\\p{L}_]{3,}");
    private static final Pattern BACKQUOTED = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern IDENTIFIER = Pattern.compile(
            "\\b([\\p{L}_][\\p{L}\\p{N}]*_[\\p{L}\\p{N}_]*|[\\p{Ll}]+[\\p{Lu}][\\p{L}\\p{N}]*|[\\p{L}_][\\p{L}\\p{N}_]*(?=\\())");
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

    private enum Status {
        READ,
        EMPTY,
        NOT_OPENED
    }

    private record Student(ReviewDocument document, Status status, SourceFile source) {}

    /** One letter lower, and why. */
    private record Deduction(String reason) {}

    /** Reviews the homework: the analysis (Markdown) and the letter that follows from it. */
    public Verdict review(ReviewRequest request) {
        List<Student> students =
                request.submission().stream().map(Grader::student).toList();
        List<SourceFile> readable = students.stream()
                .filter(student -> student.status() == Status.READ)
                .map(Student::source)
                .toList();
        List<SourceFile> reference = readableFiles(request.solution());
        List<SourceFile> tasks = readableFiles(request.task());
        RestrictionRules rules = RestrictionRules.parse(readableFiles(request.restrictions()));
        List<Outcome> outcomes = readable.isEmpty() ? List.of() : rules.check(readable);
        List<Finding> findings = GraderAddressed.find(readable);
        List<String> terms = taskTerms(tasks);
        Set<String> submitted = wordsOf(readable);
        List<String> covered =
                terms.stream().filter(term -> found(term, submitted)).toList();
        Similarity.Result similarity =
                reference.isEmpty() || readable.isEmpty() ? null : Similarity.compare(readable, reference);
        List<String> namedFiles = namedFiles(tasks);

        List<String> sections = new ArrayList<>();
        List<String> why = new ArrayList<>();
        String grade;
        if (readable.isEmpty()) {
            grade = "F";
            why.add(
                    students.isEmpty()
                            ? "No file was submitted, so there is nothing to grade: F."
                            : "No file of the submission has text I could read, so there is nothing to grade: F.");
        } else {
            int base = similarity != null
                    ? baseFromSimilarity(similarity, why)
                    : baseFromTerms(terms.size(), covered.size(), why);
            List<Deduction> deductions = new ArrayList<>();
            outcomes.stream().filter(Outcome::broken).forEach(outcome -> deduct(outcome, deductions));
            missingNamedFiles(namedFiles, students, deductions);
            int index = base;
            for (Deduction deduction : deductions) {
                int next = Math.min(index + 1, GRADES.length() - 1);
                why.add("One letter lower, to " + GRADES.charAt(next) + (next == index ? " (F is the floor)" : "")
                        + ": " + deduction.reason() + ".");
                index = next;
            }
            if (deductions.isEmpty()) {
                why.add("No rule broken, no required file missing: the base letter stands.");
            }
            grade = String.valueOf(GRADES.charAt(index));
        }
        if (!findings.isEmpty()) {
            why.add("The text addressed to the grader does not change the grade.");
        }
        why.add("Grade: " + grade + ".");

        sections.add(INTRODUCTION);
        sections.add(headline(request, grade));
        sections.add(taskSection(request.task(), tasks, terms, covered, readable.isEmpty()));
        sections.add(filesSection(students, namedFiles));
        sections.add(restrictionSection(request.restrictions(), rules, outcomes, readable.isEmpty()));
        sections.add(similaritySection(reference, similarity, readable.isEmpty()));
        if (!findings.isEmpty()) {
            sections.add(findingsSection(findings));
        }
        sections.add("## Why " + grade + "\n\n" + bullets(why));
        return new Verdict(grade, String.join("\n\n", sections));
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
            terms.addAll(frequentWords(prose.toString()));
        }
        return terms.stream().limit(MAX_TASK_TERMS).toList();
    }

    /** Words of four letters or more, neither everyday nor task vocabulary, most frequent first, then first seen. */
    private static List<String> frequentWords(String text) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        Matcher matcher = WORD.matcher(text.toLowerCase(Locale.ROOT));
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

    private static int baseFromSimilarity(Similarity.Result similarity, List<String> why) {
        if (similarity.unrelated()) {
            why.add("Base letter F: the submission uses none of the reference solution's "
                    + similarity.particular().size() + " particular names, so it is about something else, whatever"
                    + " its similarity of " + similarity.percent() + "%.");
            return GRADES.length() - 1;
        }
        int percent = similarity.percent();
        int index = band(percent, SIMILARITY_BANDS, 0);
        why.add("Base letter " + GRADES.charAt(index) + ": the similarity to the reference solution is " + percent
                + "%, " + bandText(index, SIMILARITY_BANDS, 0) + ".");
        return index;
    }

    /** The first few names, in code, with how many more there are. */
    private static String names(List<String> names) {
        String shown = names.stream().limit(MAX_NAMES).map(Place::code).collect(Collectors.joining(", "));
        return names.size() > MAX_NAMES ? shown + " and " + (names.size() - MAX_NAMES) + " more" : shown;
    }

    private static int baseFromTerms(int total, int covered, List<String> why) {
        if (total == 0) {
            why.add("Base letter C: there is neither a reference solution nor a task with key terms to compare"
                    + " the submission with, so it starts in the middle of the scale; the teacher's reading decides.");
            return 2;
        }
        int percent = Math.round(100f * covered / total);
        int index = band(percent, COVERAGE_BANDS, 1);
        why.add("Base letter " + GRADES.charAt(index) + ": there is no reference solution, so the base comes from"
                + " the task's key terms, " + covered + " of " + total + " (" + percent + "%) of which are in the"
                + " submission, " + bandText(index, COVERAGE_BANDS, 1)
                + "; without a reference the best base letter is B.");
        return index;
    }

    /** The index in {@link #GRADES} of the first band {@code percent} reaches; F below them all. */
    private static int band(int percent, int[] bands, int firstLetter) {
        for (int i = 0; i < bands.length; i++) {
            if (percent >= bands[i]) {
                return firstLetter + i;
            }
        }
        return GRADES.length() - 1;
    }

    private static String bandText(int index, int[] bands, int firstLetter) {
        int band = index - firstLetter;
        if (band >= bands.length) {
            return "below " + bands[bands.length - 1] + "%, the F band";
        }
        String lower = bands[band] + "%";
        return band == 0
                ? "in the " + GRADES.charAt(index) + " band (" + lower + " or more)"
                : "in the " + GRADES.charAt(index) + " band (" + lower + " to " + (bands[band - 1] - 1) + "%)";
    }

    private static void deduct(Outcome outcome, List<Deduction> deductions) {
        Place source = outcome.rule().source();
        String rule = "“" + source.text() + "” (" + source.file() + ", line " + source.line() + ")";
        if (!outcome.hits().isEmpty()) {
            Place first = outcome.hits().getFirst();
            deductions.add(new Deduction("breaks " + rule + " at " + first.file() + ", line " + first.line()));
        }
        for (Check missing : outcome.missing()) {
            deductions.add(new Deduction("lacks " + missing.describe() + ", which " + rule + " requires"));
        }
    }

    private static void missingNamedFiles(List<String> named, List<Student> students, List<Deduction> deductions) {
        for (String name : named) {
            Student student = submittedAs(name, students);
            if (student == null) {
                deductions.add(new Deduction(name + ", which the task names, was not submitted"));
            } else if (student.status() == Status.EMPTY) {
                deductions.add(new Deduction(name + ", which the task names, is empty"));
            }
        }
    }

    private static Student submittedAs(String name, List<Student> students) {
        return students.stream()
                .filter(student -> baseName(student.document().name()).equalsIgnoreCase(name))
                .findFirst()
                .orElse(null);
    }

    private static String baseName(String name) {
        String path = name == null ? "" : name.replace('\\', '/');
        return path.substring(path.lastIndexOf('/') + 1);
    }

    // --- writing

    private static String headline(ReviewRequest request, String grade) {
        StringBuilder line = new StringBuilder("**Grade: ").append(grade).append("**");
        if (request.assignment() != null && !request.assignment().isBlank()) {
            line.append(" for assignment ").append(Place.code(Place.shorten(request.assignment())));
        }
        if (request.subject() != null && !request.subject().isBlank()) {
            line.append(" (").append(Place.shorten(request.subject())).append(')');
        }
        return line.append(". How it follows from the findings is at the end.").toString();
    }

    private static String taskSection(
            List<ReviewDocument> taskDocuments,
            List<SourceFile> tasks,
            List<String> terms,
            List<String> covered,
            boolean nothingRead) {
        List<String> lines = new ArrayList<>();
        if (taskDocuments.isEmpty()) {
            lines.add("No task file came with the assignment.");
        }
        for (ReviewDocument document : taskDocuments) {
            if (!document.opened()) {
                lines.add(document.name() + " could not be read (" + document.notOpened() + ").");
            }
        }
        for (SourceFile task : tasks.stream().limit(MAX_TASK_FILES).toList()) {
            List<Place> asks = new ArrayList<>();
            for (int number = 1; number <= task.lines().size() && asks.size() < MAX_TASK_LINES; number++) {
                String line = task.line(number);
                if (!line.isBlank() && !HEADING.matcher(line).matches()) {
                    asks.add(new Place(task.name(), number, line));
                }
            }
            asks.forEach(place -> lines.add(quote(place)));
        }
        if (tasks.size() > MAX_TASK_FILES) {
            lines.add("and " + (tasks.size() - MAX_TASK_FILES) + " more task files.");
        }
        if (!terms.isEmpty()) {
            String shown = terms.stream().map(Place::code).collect(Collectors.joining(", "));
            if (nothingRead) {
                lines.add("Its key terms: " + shown + ".");
            } else {
                List<String> absent =
                        terms.stream().filter(term -> !covered.contains(term)).toList();
                lines.add("Its key terms: " + shown + "; " + covered.size() + " of " + terms.size()
                        + " are in the submission"
                        + (absent.isEmpty()
                                ? "."
                                : " (not found: "
                                        + absent.stream().map(Place::code).collect(Collectors.joining(", "))
                                        + ")."));
            }
        }
        return "## The task\n\n" + bullets(lines);
    }

    private static String filesSection(List<Student> students, List<String> namedFiles) {
        List<String> lines = new ArrayList<>();
        if (students.isEmpty()) {
            lines.add("No file was submitted.");
        }
        for (Student student : students.stream().limit(MAX_FILES).toList()) {
            ReviewDocument document = student.document();
            lines.add(
                    switch (student.status()) {
                        case NOT_OPENED -> document.name() + ": not opened (" + document.notOpened() + ").";
                        case EMPTY -> document.name() + ": empty.";
                        case READ -> {
                            int count = student.source().lines().size();
                            String size = count + (count == 1 ? " line" : " lines");
                            yield document.truncated()
                                    ? document.name() + ": read up to the size budget (" + size
                                            + "); the rest was not reviewed."
                                    : document.name() + ": read, " + size + ".";
                        }
                    });
        }
        if (students.size() > MAX_FILES) {
            lines.add("and " + (students.size() - MAX_FILES) + " more files.");
        }
        for (String name : namedFiles) {
            if (submittedAs(name, students) == null) {
                lines.add("Missing: " + name + ", which the task names, was not submitted.");
            }
        }
        return "## Files\n\n" + bullets(lines);
    }

    private static String restrictionSection(
            List<ReviewDocument> documents, RestrictionRules rules, List<Outcome> outcomes, boolean nothingRead) {
        List<String> lines = new ArrayList<>();
        if (documents.isEmpty()) {
            lines.add("The assignment has no restriction files.");
        }
        for (ReviewDocument document : documents) {
            if (!document.opened()) {
                lines.add(document.name() + " could not be read (" + document.notOpened() + ").");
            }
        }
        if (nothingRead && !rules.rules().isEmpty()) {
            lines.add("There is no readable file to check the " + rules.rules().size() + " rules against.");
        }
        List<String> broken = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (Outcome outcome : outcomes) {
            String rule = "“" + outcome.rule().source().text() + "” ("
                    + outcome.rule().source().file() + ", line "
                    + outcome.rule().source().line() + ")";
            if (!outcome.hits().isEmpty()) {
                broken.add("Broken: " + rule + ": " + pointers(outcome.hits()) + ".");
            }
            if (!outcome.missing().isEmpty()) {
                broken.add("Broken: " + rule + ": no file has "
                        + outcome.missing().stream().map(Check::describe).collect(Collectors.joining(", ")) + ".");
            }
            if (!outcome.broken()) {
                kept.add(rule);
            }
        }
        broken.stream().limit(MAX_RULES_LISTED).forEach(lines::add);
        if (broken.size() > MAX_RULES_LISTED) {
            lines.add("and " + (broken.size() - MAX_RULES_LISTED) + " more broken rules.");
        }
        if (!kept.isEmpty()) {
            lines.add("Kept: "
                    + String.join("; ", kept.stream().limit(MAX_RULES_LISTED).toList())
                    + (kept.size() > MAX_RULES_LISTED ? "; and " + (kept.size() - MAX_RULES_LISTED) + " more" : "")
                    + ".");
        }
        List<Place> uncheckable = rules.uncheckable();
        if (!uncheckable.isEmpty()) {
            lines.add("Rules I cannot check (a teacher's reading is needed): "
                    + uncheckable.stream()
                            .limit(MAX_UNCHECKABLE)
                            .map(place -> "“" + Place.shorten(place.text()) + "” (" + place.file() + ", line "
                                    + place.line() + ")")
                            .collect(Collectors.joining("; "))
                    + (uncheckable.size() > MAX_UNCHECKABLE
                            ? "; and " + (uncheckable.size() - MAX_UNCHECKABLE) + " more"
                            : "")
                    + ".");
        }
        if (lines.isEmpty()) {
            lines.add("The restriction files state no rules.");
        }
        return "## Restrictions\n\n" + bullets(lines);
    }

    private static String similaritySection(
            List<SourceFile> reference, Similarity.Result similarity, boolean nothingRead) {
        if (reference.isEmpty()) {
            return "## Similarity to the reference solution\n\nThe assignment has no readable reference solution,"
                    + " so I cannot compare with one; the task's key terms stand in for it (see the task above).";
        }
        if (nothingRead || similarity == null) {
            return "## Similarity to the reference solution\n\nThere is no readable student file to compare with"
                    + " the reference solution.";
        }
        List<String> lines = new ArrayList<>();
        for (Similarity.FileScore file : similarity.files()) {
            lines.add(file.file() + ": " + file.percent() + "%"
                    + (reference.size() > 1 ? ", closest to the reference's " + file.closestReference() : "")
                    + (!file.usesParticularNames() && !similarity.particular().isEmpty()
                            ? " (uses none of the reference's particular names)"
                            : "")
                    + ".");
        }
        if (!similarity.particular().isEmpty()) {
            // only the names the submission uses are listed: the others would give the reference away to the student
            List<String> used = similarity.particularUsed();
            lines.add("The reference's particular names (not keywords or common built-ins): "
                    + used.size() + " of "
                    + similarity.particular().size()
                    + " used in the submission"
                    + (used.isEmpty() ? "." : " (" + names(used) + ")."));
        }
        StringBuilder text = new StringBuilder("## Similarity to the reference solution\n\n")
                .append(similarity.percent())
                .append("% overall: the Dice coefficient over token 3-grams (runs of three names, numbers or")
                .append(" operators; comments and whitespace left out, a name only one side uses counted as a")
                .append(" placeholder, so renaming costs nothing). 100% is the reference's code, 0% nothing in")
                .append(" common.")
                .append(counted(similarity))
                .append("\n\n")
                .append(bullets(lines));
        List<Place> unmatched = similarity.unmatched();
        if (!unmatched.isEmpty()) {
            // line numbers only: the student reads this review, and the reference's code is not theirs to see
            text.append("\n\nReference lines with no counterpart in the submission: ")
                    .append(unmatched.size())
                    .append(" of ")
                    .append(similarity.referenceLines())
                    .append(" (")
                    .append(lineNumbers(unmatched))
                    .append("). The teacher can look them up; the reference's code is not quoted here.");
        }
        return text.toString();
    }

    /** {@code fractions.py lines 3, 7-9, 12}, per reference file, the first {@code MAX_UNMATCHED_LINES} lines. */
    private static String lineNumbers(List<Place> places) {
        Map<String, List<Integer>> byFile = new LinkedHashMap<>();
        places.stream()
                .limit(MAX_UNMATCHED_LINES)
                .forEach(place -> byFile.computeIfAbsent(place.file(), file -> new ArrayList<>())
                        .add(place.line()));
        List<String> parts = new ArrayList<>();
        byFile.forEach((file, lines) -> {
            List<String> ranges = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                int first = lines.get(i);
                while (i + 1 < lines.size() && lines.get(i + 1) == lines.get(i) + 1) {
                    i++;
                }
                ranges.add(first == lines.get(i) ? String.valueOf(first) : first + "-" + lines.get(i));
            }
            parts.add(file + (lines.size() == 1 ? " line " : " lines ") + String.join(", ", ranges));
        });
        String more =
                places.size() > MAX_UNMATCHED_LINES ? " and " + (places.size() - MAX_UNMATCHED_LINES) + " more" : "";
        return String.join("; ", parts) + more;
    }

    /** Which files the overall figure is of, when it is not all of them. */
    private static String counted(Similarity.Result similarity) {
        List<String> left = similarity.files().stream()
                .map(Similarity.FileScore::file)
                .filter(file -> !similarity.counted().contains(file))
                .toList();
        if (left.isEmpty() || similarity.counted().isEmpty()) {
            return "";
        }
        return " It is of " + String.join(", ", similarity.counted()) + ": the files that together come closest to"
                + " the reference; " + String.join(", ", left) + (left.size() == 1 ? " adds" : " add")
                + " nothing that brings the submission closer, so " + (left.size() == 1 ? "it is" : "they are")
                + " left out rather than counted against it.";
    }

    private static String findingsSection(List<Finding> findings) {
        List<String> lines = new ArrayList<>();
        for (Finding finding : findings.stream().limit(MAX_FINDINGS).toList()) {
            lines.add(finding.place().pointer() + " " + finding.attempt() + ".");
        }
        if (findings.size() > MAX_FINDINGS) {
            lines.add("and " + (findings.size() - MAX_FINDINGS) + " more lines.");
        }
        return "## Text addressed to the grader\n\nThese lines speak to whoever grades the work instead of being"
                + " part of it. They are reported for the teacher and do not change the grade.\n\n" + bullets(lines);
    }

    private static String pointers(List<Place> hits) {
        String shown = hits.stream().limit(MAX_HITS).map(Place::pointer).collect(Collectors.joining("; "));
        return hits.size() > MAX_HITS ? shown + "; and " + (hits.size() - MAX_HITS) + " more" : shown;
    }

    private static String quote(Place place) {
        return place.file() + ", line " + place.line() + ": “" + Place.shorten(place.text()) + "”";
    }

    private static String bullets(List<String> lines) {
        return lines.stream().map(line -> "- " + line).collect(Collectors.joining("\n"));
    }
}
