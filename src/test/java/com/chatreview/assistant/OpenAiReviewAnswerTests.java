package com.chatreview.assistant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.chatreview.assistant.ReviewAnswer.InvalidAnswer;
import com.chatreview.grading.Rubric;
import com.chatreview.grading.Verdict.Severity;
import com.chatreview.grading.Verdicts.Observation;
import com.chatreview.grading.Verdicts.Proposal;
import com.chatreview.grading.Verdicts.Score;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How the openai provider reads a model's review: the shape of its JSON schema, checked in code. */
class OpenAiReviewAnswerTests {

    private static final String VALID = OpenAiAssistantTests.VALID;

    @Test
    void aValidAnswerIsTheProposalItMakes() {
        Proposal proposal = ReviewAnswer.read(VALID, Rubric.DEFAULT);

        assertThat(proposal.scores())
                .containsExactly(
                        new Score("correctness", 40, "Adds the fractions but never reduces them."),
                        new Score("restrictions", 25, "No forbidden import."),
                        new Score("completeness", 15, "fractions.py is handed in."));
        assertThat(proposal.observations())
                .containsExactly(
                        new Observation("correctness", Severity.INFO, null, null, null, "One function, as asked."),
                        new Observation(
                                "correctness",
                                Severity.MAJOR,
                                "fractions.py",
                                3,
                                3,
                                "The result is never reduced to lowest terms."));
        assertThat(proposal.flags()).isEmpty();
        assertThat(proposal.preface()).isEmpty();
        assertThat(proposal.summary()).isEqualTo("A correct sum, not yet in lowest terms.");
    }

    @Test
    void aCodeFenceAroundTheJsonAndAbsentPlacesAreTolerated() {
        String fenced = "```json\n" + VALID.replace("\"file\": null, \"line\": null, \"endLine\": null,", "") + "\n```";

        Proposal proposal = ReviewAnswer.read(fenced, Rubric.DEFAULT);

        assertThat(proposal.observations().getFirst().file()).isNull();
        assertThat(proposal.observations()).hasSize(2);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "\"points\": 40|\"points\": 40.0|criteria[0].points must be a whole number, not 40.0",
                "\"points\": 40|\"points\": \"40\"|criteria[0].points must be a whole number, not \"40\"",
                "\"points\": 40|\"points\": 99999999999|criteria[0].points must be a whole number",
                "\"severity\": \"major\"|\"severity\": \"blocker\"|findings[1].severity must be one of info, minor,"
                        + " major, critical, not \"blocker\"",
                "\"line\": 3|\"line\": \"3\"|findings[1].line must be a whole number or null, not \"3\"",
                "\"summary\": \"A correct sum, not yet in lowest terms.\"|\"summary\": null|summary must be a string,"
                        + " not null",
                "\"criteria\": [|\"scores\": [|criteria must be an array, and it is missing",
                "\"criterionId\": \"completeness\"|\"criterionId\": \"style\"|criteria[2].criterionId \"style\" is not"
                        + " a criterion of the rubric; criteria has no entry for the criterion \"completeness\"",
                "\"criterionId\": \"completeness\"|\"criterionId\": \"restrictions\"|criteria[2] scores"
                        + " \"restrictions\" a second time",
            })
    void anAnswerOfAnotherShapeSaysWhatIsWrong(String valid, String wrong, String problem) {
        assertThatThrownBy(() -> ReviewAnswer.read(VALID.replace(valid, wrong), Rubric.DEFAULT))
                .isInstanceOf(InvalidAnswer.class)
                .hasMessageContaining(problem);
    }

    @Test
    void textThatIsNotAJsonObjectIsNotAReview() {
        assertThatThrownBy(() -> ReviewAnswer.read("The code is fine.\nGRADE: B", Rubric.DEFAULT))
                .isInstanceOf(InvalidAnswer.class)
                .hasMessageStartingWith("it is not JSON (");
        assertThatThrownBy(() -> ReviewAnswer.read("[1, 2]", Rubric.DEFAULT))
                .isInstanceOf(InvalidAnswer.class)
                .hasMessage("it is not a JSON object");
        assertThatThrownBy(() -> ReviewAnswer.read(VALID.substring(0, 200), Rubric.DEFAULT))
                .isInstanceOf(InvalidAnswer.class)
                .hasMessageStartingWith("it is not JSON (");
    }

    @Test
    void aFindingOnACriterionTheRubricDoesNotHaveIsLeftToTheServiceToDrop() {
        Proposal proposal = ReviewAnswer.read(
                VALID.replace(
                        "\"criterionId\": \"correctness\", \"severity\": \"info\"",
                        "\"criterionId\": \"style\"," + " \"severity\": \"info\""),
                Rubric.DEFAULT);

        assertThat(proposal.observations())
                .extracting(Observation::criterionId)
                .containsExactly("style", "correctness");
    }
}
