package com.chatreview.grading;

import com.chatreview.grading.ReviewRequest.ReviewDocument;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A written answer (a definition, an explanation, an essay: no program among the student's files nor the
 * reference's) judged by meaning, not by its words alone: how close it is to the reference answer as a whole, as a
 * sentence model sees it, the same with the task's own words left out of both ("question demoting": an answer that
 * repeats the question says nothing yet), and how many of the reference's key words it has, besides the task's;
 * which of the reference answer's points it makes, and, without a reference, whether it is about the task at all
 * (docs/review-rubric.md, Written answers). The weights and the scale were chosen on human graders' scores of 2,442
 * answers ({@code bench/grading-agreement}).
 */
final class Prose {

    /**
     * The measure ({@link Judgement#score}) from which an answer earns every point of correctness: of the scales
     * {@code (score - NONE) / (FULL - NONE)}, the one whose letters agree best with two human graders' on 2,442
     * answers (quadratic weighted kappa 0.533; theirs with each other 0.486): those graders gave most answers full
     * marks, and an answer a third as close as a paraphrase already says much of what was asked.
     */
    static final double FULL = 0.41;
    /** The measure up to which it earns none. */
    static final double NONE = 0.0;
    /** The measure's weight of the key words (the rest is the meaning's, half whole, half without the task's words). */
    static final double KEY_WORDS = 0.3;
    /** A point of the reference answer is made when a sentence of the answer is at least this close to it. */
    static final double POINT_MADE = 0.6;
    /** An answer less similar than this to the task is about something else. */
    static final double ON_TOPIC = 0.2;
    /** An answer of this many words or more says enough to be read as an answer (without a reference). */
    static final int SUBSTANTIAL_WORDS = 40;
    /**
     * The share of correctness an on-topic, substantial answer gets when nothing can judge whether it is right (no
     * reference answer, or no model): a middle grade, never an F, and the teacher decides.
     */
    static final double UNJUDGED_SHARE = 0.6;

    /** The reference answer's points compared one by one: its first sentences. */
    private static final int MAX_POINTS = 12;
    /**
     * The answer is compared with the points in passages of a few sentences, at most this many: each passage costs
     * the model a call (about 1.5 ms of CPU however short), so a page is read in a dozen, not in forty sentences.
     */
    private static final int MAX_PASSAGES = 12;

    private static final int PASSAGE_WORDS = 60;
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?;:])\\s+|\\R+");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    /** Short everyday words besides {@link Stopwords#EVERYDAY}'s, which start at three letters. */
    private static final Set<String> SHORT_WORDS =
            Set.of("is", "it", "of", "to", "in", "on", "at", "by", "as", "be", "or", "an", "if", "so", "do", "we");

    private Prose() {}

    /**
     * What the model made of an answer.
     *
     * @param score how close the answer is to the reference answer, 0 to 1, all measures together (0.35 of the
     *     meaning, 0.35 of the meaning without the task's words, 0.3 of the key words); null without a reference or a
     *     model
     * @param toReference the whole answer's similarity to the whole reference answer; null without one or a model
     * @param toTask the answer's similarity to the task; null without a task or a model
     * @param points the reference answer's points (its sentences), 0 without one
     * @param made how many of them a sentence of the answer makes
     * @param words the answer's words
     * @param modelUnavailable why no model judged it, or null when one did
     */
    record Judgement(
            @Nullable Double score,
            @Nullable Double toReference,
            @Nullable Double toTask,
            int points,
            int made,
            int words,
            @Nullable String modelUnavailable) {}

    /** Whether the submission is written prose: readable files, none a program, and no program as the reference. */
    static boolean isProse(List<ReviewDocument> readable, List<ReviewDocument> reference) {
        return !readable.isEmpty()
                && readable.stream().noneMatch(Grader::isProgram)
                && reference.stream().noneMatch(Grader::isProgram);
    }

    /**
     * An answer of one passage is read whole and without the task's words; a longer one is read once, passage by
     * passage, and its similarity to a text is its passages' averaged by their words (reading it whole and again
     * without the task's words as well tripled the model's work on a page).
     */
    static Judgement judge(ProseMeaning meaning, String answer, String reference, String task) {
        int words = words(answer);
        List<String> passages = passages(sentences(answer), words);
        boolean whole = passages.size() <= 1;
        List<String> points = reference.isBlank()
                ? List.of()
                : sentences(reference).stream().limit(MAX_POINTS).toList();
        Set<String> taskWords = keyWords(task);
        List<String> texts = new ArrayList<>();
        if (whole) {
            texts.add(answer);
            texts.add(demoted(answer, taskWords));
        } else {
            texts.addAll(passages);
        }
        List<String> others = new ArrayList<>();
        others.add(reference);
        others.add(task);
        others.add(demoted(reference, taskWords));
        others.addAll(points);
        Optional<double[][]> judged = meaning.similarities(texts, others);
        if (judged.isEmpty()) {
            return new Judgement(
                    null, null, null, points.size(), 0, words, "no sentence model could read it on this node");
        }
        double[][] similarity = judged.get();
        // the rows that read the answer's text: the whole answer, or each passage
        List<double[]> read = whole ? List.of(similarity[0]) : List.of(similarity);
        double[] weights = new double[read.size()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = whole ? 1 : Math.max(1, words(passages.get(i)));
        }
        int made = 0;
        for (int point = 0; point < points.size(); point++) {
            double best = -1;
            for (double[] row : read) {
                best = Math.max(best, row[3 + point]);
            }
            if (best >= POINT_MADE) {
                made++;
            }
        }
        double toReference = weighted(read, weights, 0);
        Double score = null;
        if (!reference.isBlank()) {
            double demotedToReference = whole ? similarity[1][2] : toReference;
            double meant = (toReference + demotedToReference) / 2;
            score = (1 - KEY_WORDS) * meant + KEY_WORDS * keyWordsHad(answer, reference, taskWords);
        }
        return new Judgement(
                score,
                reference.isBlank() ? null : toReference,
                task.isBlank() ? null : weighted(read, weights, 1),
                points.size(),
                made,
                words,
                null);
    }

    private static double weighted(List<double[]> rows, double[] weights, int column) {
        double sum = 0;
        double total = 0;
        for (int i = 0; i < rows.size(); i++) {
            sum += weights[i] * rows.get(i)[column];
            total += weights[i];
        }
        return sum / total;
    }

    /** The share of a correctness criterion an answer of this {@link Judgement#score} earns. */
    static double share(double score) {
        return Math.clamp((score - NONE) / (FULL - NONE), 0, 1);
    }

    /** The share of the reference's key words (not the task's, not everyday ones) the answer has, 0 to 1. */
    static double keyWordsHad(String answer, String reference, Set<String> taskWords) {
        Set<String> wanted = keyWords(reference);
        Set<String> beyondTask = new HashSet<>(wanted);
        beyondTask.removeAll(taskWords);
        if (!beyondTask.isEmpty()) {
            wanted = beyondTask;
        }
        if (wanted.isEmpty()) {
            return 0;
        }
        Set<String> had = keyWords(answer);
        return wanted.stream().filter(had::contains).count() / (double) wanted.size();
    }

    /** The text's words, lower case, an {@code s} ending of a longer one dropped, everyday words left out. */
    static Set<String> keyWords(String text) {
        Set<String> words = new HashSet<>();
        Matcher matcher = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (matcher.find()) {
            String word = matcher.group();
            if (word.length() < 2 || SHORT_WORDS.contains(word) || Stopwords.EVERYDAY.contains(word)) {
                continue;
            }
            words.add(word.length() > 4 && word.endsWith("s") ? word.substring(0, word.length() - 1) : word);
        }
        return words;
    }

    /** The text without the task's words (or the text itself, when nothing else is left). */
    static String demoted(String text, Set<String> taskWords) {
        StringBuilder kept = new StringBuilder();
        Matcher matcher = WORD.matcher(text);
        while (matcher.find()) {
            String word = matcher.group().toLowerCase(Locale.ROOT);
            String stem = word.length() > 4 && word.endsWith("s") ? word.substring(0, word.length() - 1) : word;
            if (!taskWords.contains(stem)) {
                kept.append(kept.isEmpty() ? "" : " ").append(matcher.group());
            }
        }
        return kept.isEmpty() ? text : kept.toString();
    }

    /** Consecutive sentences joined into passages of about {@value #PASSAGE_WORDS} words, at most {@value #MAX_PASSAGES}. */
    static List<String> passages(List<String> sentences, int words) {
        int size = Math.max(PASSAGE_WORDS, (words + MAX_PASSAGES - 1) / MAX_PASSAGES);
        List<String> passages = new ArrayList<>();
        StringBuilder passage = new StringBuilder();
        int inPassage = 0;
        for (String sentence : sentences) {
            int sentenceWords = words(sentence);
            if (inPassage > 0 && inPassage + sentenceWords > size) {
                passages.add(passage.toString());
                passage.setLength(0);
                inPassage = 0;
            }
            passage.append(passage.isEmpty() ? "" : " ").append(sentence);
            inPassage += sentenceWords;
        }
        if (!passage.isEmpty()) {
            passages.add(passage.toString());
        }
        return passages;
    }

    /** The text's sentences (or lines) of three words or more. */
    static List<String> sentences(String text) {
        List<String> sentences = new ArrayList<>();
        for (String piece : SENTENCE_END.split(text.strip())) {
            String sentence = piece.strip();
            if (words(sentence) >= 3) {
                sentences.add(sentence);
            }
        }
        return sentences;
    }

    static int words(String text) {
        return (int) WORD.matcher(text).results().count();
    }
}
