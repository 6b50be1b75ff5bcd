package com.chatreview.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.NewMessage;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Tenant B holding tenant A's ids: every endpoint answers exactly as it does for an id that names nothing, and
 * A's data is as it was afterwards. A foreign id must not be told apart from a random one, not even by its code.
 */
@IntegrationTest
class TenantIsolationIntegrationTests {

    TestService service;

    @Autowired
    ChatManagement chatManagement;

    TestTenant tenantA;
    TestTenant tenantB;
    Api chatsOfA;
    Api homeworkOfA;
    Api chatsOfB;
    Api homeworkOfB;

    String userOfA;
    String teacherOfA;
    String chatOfA;
    String courseOfA;
    String homeworkOfAId;
    String submissionOfA;

    @BeforeEach
    void tenantAOwnsAChatACourseAHomeworkAndASubmission(TestService service) {
        this.service = service;
        tenantA = service.newTenant("isolation-a");
        tenantB = service.newTenant("isolation-b");
        Api api = service.api();
        chatsOfA = tenantA.chats(api);
        homeworkOfA = tenantA.homework(api);
        chatsOfB = tenantB.chats(api);
        homeworkOfB = tenantB.homework(api);

        userOfA = "student-" + UUID.randomUUID();
        teacherOfA = "teacher-" + UUID.randomUUID();
        Reply chat = chatsOfA.post("/api/v1/chats", """
                {"user_id": "%s", "title": "A's chat", "metadata": {"owner": "a"}}""".formatted(userOfA));
        assertThat(chat.status()).as(chat.toString()).isEqualTo(201);
        chatOfA = chat.json().get("id").asString();
        TenantId tenantId = tenantA.tenantId();
        chatManagement.append(
                tenantId, ChatId.of(UUID.fromString(chatOfA)), NewMessage.fromUser("hello", Map.of(), null));
        chatManagement.append(
                tenantId,
                ChatId.of(UUID.fromString(chatOfA)),
                NewMessage.fromAssistant("hi there", Map.of("provider", "test")));

        Reply course = homeworkOfA.post("/v1/courses", """
                {"teacherId": "%s", "name": "Algebra of A"}""".formatted(teacherOfA));
        assertThat(course.status()).as(course.toString()).isEqualTo(201);
        courseOfA = course.json().get("id").asString();
        Reply homework = homeworkOfA.post("/v1/homeworks", homeworkBody(teacherOfA, courseOfA));
        assertThat(homework.status()).as(homework.toString()).isEqualTo(201);
        homeworkOfAId = homework.json().get("id").asString();
        Reply submission = homeworkOfA.upload(
                "/v1/homeworks/" + homeworkOfAId + "/submissions",
                new Api.Multipart().field("studentId", userOfA).file("solution.txt", "x = 2"));
        assertThat(submission.status()).as(submission.toString()).isEqualTo(201);
        submissionOfA = submission.json().get("id").asString();
    }

    @Test
    void aForeignChatIsNotFoundOnEveryChatEndpoint() {
        assertSameAsNothing(id -> chatsOfB.get("/api/v1/chats/" + id), chatOfA);
        assertSameAsNothing(id -> chatsOfB.get("/api/v1/chats/" + id + "/messages"), chatOfA);
        assertSameAsNothing(id -> chatsOfB.get("/api/v1/chats/" + id + "/messages?order=desc&limit=1"), chatOfA);
        assertSameAsNothing(id -> chatsOfB.patch("/api/v1/chats/" + id, """
                {"title": "Taken over", "metadata": {"owner": "b"}, "status": "closed"}"""), chatOfA);
        assertSameAsNothing(id -> chatsOfB.delete("/api/v1/chats/" + id), chatOfA);

        Reply chat = chatsOfA.get("/api/v1/chats/" + chatOfA);
        assertThat(chat.status()).isEqualTo(200);
        assertThat(chat.json().get("title").asString()).isEqualTo("A's chat");
        assertThat(chat.json().get("status").asString()).isEqualTo("active");
        assertThat(chat.json().get("message_count").asInt()).isEqualTo(2);
        assertThat(chat.json().get("config").get("metadata").get("owner").asString())
                .isEqualTo("a");
        assertThat(chatsOfA.get("/api/v1/chats/" + chatOfA + "/messages")
                        .json()
                        .get("total")
                        .asInt())
                .isEqualTo(2);
    }

    @Test
    void aForeignUserHasNoChats() {
        assertSameAsNothing(id -> chatsOfB.get("/api/v1/chats/user/" + id), userOfA);

        Reply own = chatsOfA.get("/api/v1/chats/user/" + userOfA);
        assertThat(own.status()).isEqualTo(200);
        assertThat(own.json().get("total").asInt()).isEqualTo(2);
    }

    @Test
    void aUserIdKnownToBothTenantsListsOnlyTheCallersChats() {
        Reply ofB = chatsOfB.post("/api/v1/chats", "{\"user_id\": \"" + userOfA + "\"}");
        assertThat(ofB.status()).isEqualTo(201);

        Reply listed = chatsOfB.get("/api/v1/chats/user/" + userOfA);

        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().get("total").asInt()).isEqualTo(1);
        assertThat(listed.json().get("chats").get(0).get("id").asString())
                .isEqualTo(ofB.json().get("id").asString());
        assertThat(listed.json().get("chats").get(0).get("tenant_id").asString())
                .isEqualTo(tenantB.id());
    }

    @Test
    void aForeignHomeworkIsNotFound() {
        assertSameAsNothing(id -> homeworkOfB.get("/v1/homeworks/" + id), homeworkOfAId);

        assertThat(homeworkOfA.get("/v1/homeworks/" + homeworkOfAId).status()).isEqualTo(200);
    }

    @Test
    void listsFilteredByAForeignCourseOrTeacherShowNothing() {
        assertSameAsNothing(id -> homeworkOfB.get("/v1/homeworks?courseId=" + id), courseOfA);
        assertSameAsNothing(id -> homeworkOfB.get("/v1/homeworks?teacherId=" + id), teacherOfA);
        assertSameAsNothing(id -> homeworkOfB.get("/v1/homeworks?search=" + id), "Algebra");
        assertSameAsNothing(id -> homeworkOfB.get("/v1/courses?teacherId=" + id), teacherOfA);

        Reply unfiltered = homeworkOfB.get("/v1/homeworks");
        assertThat(unfiltered.status()).isEqualTo(200);
        assertThat(unfiltered.json().get("total").asInt()).isZero();
        assertThat(unfiltered.json().get("data").size()).isZero();
        assertThat(homeworkOfB.get("/v1/courses").json().get("data").size()).isZero();

        Reply ofA = homeworkOfA.get("/v1/homeworks?courseId=" + courseOfA);
        assertThat(ofA.json().get("total").asInt()).isEqualTo(1);
        assertThat(ofA.json().get("data").get(0).get("id").asString()).isEqualTo(homeworkOfAId);
        assertThat(homeworkOfA
                        .get("/v1/homeworks?search=algebra")
                        .json()
                        .get("total")
                        .asInt())
                .isEqualTo(1);
        assertThat(homeworkOfA
                        .get("/v1/homeworks?search=algebra&teacherId=" + teacherOfA)
                        .json()
                        .get("total")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void aForeignCourseCannotHoldAHomework() {
        assertSameAsNothing(id -> homeworkOfB.post("/v1/homeworks", homeworkBody("teacher-b", id)), courseOfA);

        Reply rejected = homeworkOfB.post("/v1/homeworks", homeworkBody("teacher-b", courseOfA));
        assertThat(rejected.status()).isEqualTo(400);
        assertThat(rejected.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(rejected.json().get("errors").get(0).get("field").asString()).isEqualTo("courseId");
        assertThat(homeworkOfA
                        .get("/v1/homeworks?courseId=" + courseOfA)
                        .json()
                        .get("total")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void noSubmissionCanBeMadeToAForeignHomework() {
        assertSameAsNothing(
                id -> homeworkOfB.upload(
                        "/v1/homeworks/" + id + "/submissions",
                        new Api.Multipart().field("studentId", "student-b").file("mine.txt", "x = 3")),
                homeworkOfAId);

        Reply submissions = homeworkOfA.get("/v1/homeworks/" + homeworkOfAId + "/submissions");
        assertThat(submissions.json().get("total").asInt()).isEqualTo(1);
        assertThat(submissions.json().get("data").get(0).get("id").asString()).isEqualTo(submissionOfA);
    }

    @Test
    void aForeignSubmissionIsNotFound() {
        String submissions = "/v1/homeworks/" + homeworkOfAId + "/submissions";
        assertSameAsNothing(id -> homeworkOfB.get(submissions + "/" + id), submissionOfA);
        assertSameAsNothing(
                id -> homeworkOfB.get("/v1/homeworks/" + id + "/submissions/" + submissionOfA), homeworkOfAId);
        assertSameAsNothing(
                id -> homeworkOfB.patch(submissions + "/" + id, "{\"status\": \"approved\"}"), submissionOfA);
        assertSameAsNothing(
                id -> homeworkOfB.patch(submissions + "/" + id, "{\"status\": \"submitted\"}"), submissionOfA);
        assertSameAsNothing(id -> homeworkOfB.get("/v1/homeworks/" + id + "/submissions"), homeworkOfAId);
        assertSameAsNothing(
                id -> homeworkOfB.get("/v1/homeworks/" + id + "/submissions?studentId=" + userOfA), homeworkOfAId);

        Reply submission = homeworkOfA.get(submissions + "/" + submissionOfA);
        assertThat(submission.status()).isEqualTo(200);
        assertThat(submission.json().get("status").asString()).isIn("submitted", "reviewed");
    }

    @Test
    void theReviewChatOfAForeignSubmissionIsNotFound() {
        String reviewChat = homeworkOfA
                .get("/v1/homeworks/" + homeworkOfAId + "/submissions/" + submissionOfA)
                .json()
                .get("chatId")
                .asString();

        assertSameAsNothing(id -> chatsOfB.get("/api/v1/chats/" + id), reviewChat);
        assertSameAsNothing(id -> chatsOfB.get("/api/v1/chats/" + id + "/messages"), reviewChat);
        assertSameAsNothing(id -> chatsOfB.delete("/api/v1/chats/" + id), reviewChat);

        assertThat(chatsOfA.get("/api/v1/chats/" + reviewChat).status()).isEqualTo(200);
    }

    /**
     * Calls the endpoint with A's id and with a random one, and asserts the two answers cannot be told apart:
     * the same status, the same code, detail and field errors once the id itself is taken out, and for a list
     * the same (empty) content.
     */
    private static void assertSameAsNothing(Function<String, Reply> call, String foreignId) {
        String randomId =
                foreignId.matches("[0-9a-f-]{36}") ? UUID.randomUUID().toString() : "nobody-" + UUID.randomUUID();
        Reply foreign = call.apply(foreignId);
        Reply nothing = call.apply(randomId);

        assertThat(foreign.status()).as(foreign.toString()).isEqualTo(nothing.status());
        assertThat(foreign.status()).as(foreign.toString()).isNotEqualTo(429).isLessThan(500);
        assertThat(shape(foreign, foreignId)).isEqualTo(shape(nothing, randomId));
    }

    /** What a client can learn from the answer, with the id it asked about taken out. */
    private static String shape(Reply reply, String askedAbout) {
        if (reply.status() < 400) {
            assertThat(reply.text()).doesNotContain(askedAbout);
            return reply.status() + " " + reply.json().get("total") + " "
                    + reply.json().get("data");
        }
        assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        return reply.status() + " " + reply.json().get("code").asString() + " "
                + reply.json().get("detail").asString().replace(askedAbout, "{id}") + " "
                + reply.json().get("errors").toString().replace(askedAbout, "{id}");
    }

    private static String homeworkBody(String teacherId, String courseId) {
        return """
                {"teacherId": "%s", "courseId": "%s", "assignmentId": "hw-1", "subject": "Algebra",
                 "files": [{"fileType": "task", "fileName": "task.md", "content": "Solve x + 1 = 3"},
                           {"fileType": "solution", "fileName": "solution.txt", "content": "x = 2"}]}""".formatted(teacherId, courseId);
    }
}
