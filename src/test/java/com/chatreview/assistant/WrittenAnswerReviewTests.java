package com.chatreview.assistant;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.grading.ProseMeaning;
import com.chatreview.grading.ReviewRequest;
import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.Verdict;
import com.chatreview.meaning.SentenceModel;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A written answer is graded by meaning (docs/review-rubric.md, Written answers): against the reference answer with
 * the service's sentence model, honestly without one or without a reference: never an F for an answer it cannot
 * judge.
 */
class WrittenAnswerReviewTests {

    static final OfflineAssistant WITH_MODEL =
            new OfflineAssistant(Duration.ZERO, OfflineAssistant.proseMeaning(SentenceModel.inProcess()));
    static final OfflineAssistant WITHOUT_MODEL = new OfflineAssistant(Duration.ZERO, ProseMeaning.NONE);

    static final ReviewDocument TASK =
            text("question.md", "What is a stack, and in what order are its elements removed?");
    static final ReviewDocument REFERENCE = text(
            "answer.txt",
            "A stack is a data structure where elements are added and removed at the same end, the top. The element"
                    + " added last is the first one removed: last in, first out (LIFO).");

    static final String PARAPHRASE = "A stack keeps its items in a pile: you push onto the top and pop from the top,"
            + " so whatever went in most recently comes out first. That is called LIFO.";
    static final String WRONG_ON_TOPIC =
            "A stack removes its elements in the order they were added: the first one in is the first one out.";
    static final String ELSEWHERE = "The French Revolution began in 1789, when the people of Paris stormed the"
            + " Bastille, and it ended the absolute monarchy of Louis XVI.";

    @Test
    void aParaphraseOfTheReferenceAnswerGetsAGoodGradeWordsOfItsOwnNotwithstanding() {
        Verdict paraphrase = review(WITH_MODEL, List.of(REFERENCE), PARAPHRASE);

        assertThat(paraphrase.grade()).isIn("A", "B");
        assertThat(correctness(paraphrase).explanation()).contains("meaning").contains("reference answer");
        assertThat(paraphrase.flags())
                .as("judged against a reference answer: not flagged unverified")
                .noneMatch(flag -> flag.kind().equals("correctness_unverified"));
    }

    /**
     * What a model of meaning does not see, said here so that nobody counts on it: an answer on the topic that states
     * the opposite fact in the same words (first in, first out) is as close to the reference as a paraphrase. The
     * teacher's reading, or tests, catch it.
     */
    @Test
    void anAnswerAboutSomethingElseEarnsLeastWhileAReversedFactOnTheTopicIsNotSeen() {
        int paraphrase =
                correctness(review(WITH_MODEL, List.of(REFERENCE), PARAPHRASE)).points();
        int reversed = correctness(review(WITH_MODEL, List.of(REFERENCE), WRONG_ON_TOPIC))
                .points();
        Verdict elsewhere = review(WITH_MODEL, List.of(REFERENCE), ELSEWHERE);

        assertThat(correctness(elsewhere).points()).isLessThanOrEqualTo(12);
        assertThat(elsewhere.grade()).isEqualTo("F");
        assertThat(reversed).as("not told apart by meaning").isGreaterThanOrEqualTo(paraphrase - 10);
    }

    @Test
    void withoutAReferenceAnOnTopicAnswerGetsAMiddleGradeAndIsFlaggedForTheTeacher() {
        Verdict verdict = review(WITH_MODEL, List.of(), PARAPHRASE);

        assertThat(verdict.grade()).isEqualTo("C");
        assertThat(correctness(verdict).points()).isEqualTo(36).isLessThanOrEqualTo(45);
        assertThat(verdict.flags())
                .anyMatch(flag -> flag.kind().equals("correctness_unverified")
                        && flag.message().contains("no reference answer"));
    }

    @Test
    void withoutAReferenceAnAnswerAboutSomethingElseEarnsNothingForCorrectnessAndIsSaidToBe() {
        Verdict verdict = review(WITH_MODEL, List.of(), ELSEWHERE);

        assertThat(correctness(verdict).points()).isZero();
        assertThat(verdict.findings()).anyMatch(finding -> finding.message().contains("about something else"));
        assertThat(verdict.flags()).anyMatch(flag -> flag.kind().equals("correctness_unverified"));
    }

    @Test
    void withoutAModelAWrittenAnswerIsNeverFailedItGetsAMiddleGradeAndTheFlag() {
        for (List<ReviewDocument> reference : List.of(List.of(REFERENCE), List.<ReviewDocument>of())) {
            for (String answer : List.of(PARAPHRASE, WRONG_ON_TOPIC)) {
                Verdict verdict = review(WITHOUT_MODEL, reference, answer);

                assertThat(verdict.grade()).as("%s, %s", reference, answer).isEqualTo("C");
                assertThat(verdict.flags())
                        .anyMatch(flag -> flag.kind().equals("correctness_unverified")
                                && flag.message().contains("not judged"));
            }
        }
    }

    @Test
    void aProgramIsStillGradedByItsLikenessToTheReferenceProgram() {
        ReviewDocument program = ReviewDocument.text("stack.py", "text/x-python", "def push(s, x):\n    s.append(x)\n");
        Verdict verdict = WITH_MODEL
                .review(
                        new ReviewRequest(
                                "stack-1",
                                null,
                                List.of(TASK),
                                List.of(program),
                                List.of(),
                                List.of(ReviewDocument.text(
                                        "stack.py", "text/x-python", "def push(s, x):\n    s.append(x)\n"))),
                        token -> {})
                .verdict();

        assertThat(correctness(verdict).explanation()).contains("like the reference solution");
    }

    private static Verdict review(OfflineAssistant assistant, List<ReviewDocument> reference, String answer) {
        return assistant
                .review(
                        new ReviewRequest(
                                "stack-1",
                                null,
                                List.of(TASK),
                                reference,
                                List.of(),
                                List.of(text("answer.txt", answer))),
                        token -> {})
                .verdict();
    }

    private static Verdict.CriterionScore correctness(Verdict verdict) {
        return verdict.criteria().stream()
                .filter(criterion -> criterion.criterionId().equals("correctness"))
                .findFirst()
                .orElseThrow();
    }

    private static ReviewDocument text(String name, String text) {
        return ReviewDocument.text(name, name.endsWith(".md") ? "text/markdown" : "text/plain", text);
    }
}
