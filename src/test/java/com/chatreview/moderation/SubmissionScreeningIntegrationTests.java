package com.chatreview.moderation;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Handed-in files are screened by the review (docs/safety.md, Handed-in files): what they hold is flagged to the
 * tenant, never to the grade; contact details at the top of an essay are no alarm.
 */
@IntegrationTest
class SubmissionScreeningIntegrationTests {

    @Test
    void aSelfHarmNoteInAnEssayIsFlaggedToTheSchoolAndNotToTheGrade(TestService service) {
        TestTenant tenant = service.newTenant("submission-screening");
        String homeworkId = tenant.publishHomework("essay-1");
        String essay = """
                Lena Meyer, lena.meyer2011@gmail.com, +49 151 2345 6789

                The water cycle moves water between the oceans, the air and the land.

                Sorry it is short. I don't want to be alive anymore and I have the pills ready.
                """;
        JsonNode flagged = tenant.upload(homeworkId, "student-9", "essay.txt", essay);
        JsonNode plain = tenant.upload(
                homeworkId,
                "student-8",
                "essay.txt",
                "Lena Meyer, lena.meyer2011@gmail.com\n\nThe water cycle moves water between the oceans.\n");

        JsonNode reviewed = awaitReview(tenant, homeworkId, flagged.get("id").asString());
        awaitReview(tenant, homeworkId, plain.get("id").asString());

        Api api = tenant.chats();
        JsonNode flags = api.get("/api/v1/moderation/flags").json();
        assertThat(flags.get("total").asInt())
                .as("the plain essay, its e-mail address included, is no alarm")
                .isEqualTo(1);
        JsonNode flag = flags.get("flags").get(0);
        assertThat(flag.get("categories").toString()).isEqualTo("[\"self_harm\"]");
        assertThat(flag.get("user_id").asString()).isEqualTo("student-9");
        String chatId = reviewed.get("chatId").asString();
        assertThat(flag.get("chat_id").asString()).isEqualTo(chatId);
        JsonNode request = api.get("/api/v1/chats/" + chatId + "/messages")
                .json()
                .get("messages")
                .get(0);
        assertThat(flag.get("message_id").asString())
                .as("the review chat's message that stands for the submission")
                .isEqualTo(request.get("id").asString());
        assertThat(reviewed.get("analysis").asString()).doesNotContainIgnoringCase("self-harm");
        assertThat(reviewed.get("flags").toString()).doesNotContain("self_harm");
    }

    private static JsonNode awaitReview(TestTenant tenant, String homeworkId, String submissionId) {
        String path = "/v1/homeworks/" + homeworkId + "/submissions/" + submissionId;
        return Eventually.value(Duration.ofSeconds(60), () -> {
            JsonNode submission = tenant.homework().get(path).json();
            return submission.get("review").get("state").asString().equals("done") ? submission : null;
        });
    }
}
