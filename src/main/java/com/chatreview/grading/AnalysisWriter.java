package com.chatreview.grading;

import com.chatreview.grading.Grader.Measures;
import com.chatreview.grading.Grader.Student;
import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.source.RestrictionRules;
import com.chatreview.grading.source.RestrictionRules.Check;
import com.chatreview.grading.source.RestrictionRules.Outcome;
import com.chatreview.grading.source.Similarity;
import com.chatreview.grading.source.SourceFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Writes the part of a review after its criteria and findings: what the task asks, which files were read, which
 * rules are kept and broken, and how close the work is to the reference solution, from what the {@link Grader}
 * measured. It judges nothing; the grade is the grader's.
 */
final class AnalysisWriter {

    private static final int MAX_TASK_FILES = 3;
    private static final int MAX_TASK_LINES = 2;
    private static final int MAX_FILES = 20;
    private static final int MAX_RULES_LISTED = 10;
    private static final int MAX_UNCHECKABLE = 5;
    private static final int MAX_UNMATCHED_LINES = 40;

    private static final Pattern HEADING = Pattern.compile("^\\s*(?:#{1,6}\\s|={3,}|-{3,}).*");

    private AnalysisWriter() {}

    /** The review's details, after its criteria and findings: what the task asks, the files, the rules, the similarity. */
    static String write(Measures measures) {
        ReviewRequest request = measures.request();
        boolean nothingRead = measures.readable().isEmpty();
        return String.join(
                "\n\n",
                taskSection(request.task(), measures.tasks(), measures.terms(), measures.covered(), nothingRead),
                filesSection(measures.students(), measures.namedFiles()),
                restrictionSection(request.restrictions(), measures.rules(), measures.outcomes(), nothingRead),
                // where the teacher's tests ran, they, not a resemblance to the reference, say whether the work is
                // right
                request.testsRan()
                        ? ""
                        : measures.prose() != null
                                ? meaningSection(measures.prose())
                                : similaritySection(
                                        measures.reference(), measures.similarity(), measures.terms(), nothingRead));
    }

    /** How a written answer was compared by meaning: with what, how close, and how many of the reference's points. */
    private static String meaningSection(Prose.Judgement prose) {
        String heading = "## Meaning compared with the reference answer\n\n";
        if (prose.modelUnavailable() != null) {
            return heading + "The answer is written prose, but " + prose.modelUnavailable()
                    + ", so its meaning was not compared with anything; the teacher's reading decides.";
        }
        Double toReference = prose.toReference();
        Double toTask = prose.toTask();
        if (toReference == null) {
            return heading + "The assignment has no reference answer, so the answer's meaning was compared with the"
                    + " task's only"
                    + (toTask == null
                            ? " (there is none either)."
                            : ": " + percent(toTask)
                                    + " alike, which tells whether it is about the task, not whether it is right.");
        }
        Double score = prose.score();
        return heading + "A small sentence-similarity model, run in this service, read the answer ("
                + prose.words() + " words) and the reference answer: their meanings are " + percent(toReference)
                + " alike"
                + (score == null
                        ? ""
                        : "; with the task's own words left out and the reference's key words counted, "
                                + percent(score))
                + (prose.points() > 1
                        ? "; for " + prose.made() + " of the reference answer's " + prose.points() + " sentences"
                                + " the answer has a passage at least " + percent(Prose.POINT_MADE) + " alike."
                        : ".")
                + (toTask == null ? "" : " The answer is " + percent(toTask) + " alike the task's text.");
    }

    private static String percent(double similarity) {
        return Math.round(similarity * 100) + "%";
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
                            int count = Objects.requireNonNull(student.source(), "a file read has its source")
                                    .lines()
                                    .size();
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
            if (Grader.submittedAs(name, students) == null) {
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
            List<SourceFile> reference,
            Similarity.@Nullable Result similarity,
            List<String> terms,
            boolean nothingRead) {
        if (reference.isEmpty()) {
            return "## Similarity to the reference solution\n\nThe assignment has no readable reference solution,"
                    + " so I cannot compare with one; "
                    + (terms.isEmpty()
                            ? "nor does the task name anything I can look for instead."
                            : "the task's key terms stand in for it (see the task above).");
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
                    + (used.isEmpty() ? "." : " (" + Grader.names(used) + ")."));
        }
        StringBuilder text = new StringBuilder("## Similarity to the reference solution\n\n")
                .append(similarity.percent())
                .append("% alike overall. This compares the steps of the code, not the names you chose, your")
                .append(" comments or your spacing: 100% is the reference's code, 0% nothing in common. Alike is")
                .append(" not proof that your work is right, and nothing ran it.")
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

    private static String pointers(List<Place> hits) {
        String shown = hits.stream().limit(Grader.MAX_HITS).map(Place::pointer).collect(Collectors.joining("; "));
        return hits.size() > Grader.MAX_HITS ? shown + "; and " + (hits.size() - Grader.MAX_HITS) + " more" : shown;
    }

    private static String quote(Place place) {
        return place.file() + ", line " + place.line() + ": “" + Place.shorten(place.text()) + "”";
    }

    private static String bullets(List<String> lines) {
        return lines.stream().map(line -> "- " + line).collect(Collectors.joining("\n"));
    }
}
