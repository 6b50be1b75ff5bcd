package com.chatreview.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Deliveries over real HTTP to a receiver the test starts: the events of real actions, signed as Standard Webhooks
 * has it, retried until answered 2xx with the same webhook-id.
 */
@IntegrationTest
class WebhookDeliveryIntegrationTests {

    static final Duration WAIT = Duration.ofSeconds(20);
    /** How long the slow receiver holds a request: as long as the deliverer waits for an answer. */
    static final Duration SLOW = Duration.ofSeconds(10);

    TestService service;

    @org.springframework.beans.factory.annotation.Autowired
    org.springframework.jdbc.core.simple.JdbcClient jdbc;

    TestTenant tenant;
    Api api;
    Receiver receiver;

    @BeforeEach
    void start(TestService service) throws Exception {
        this.service = service;
        tenant = service.newTenant("webhook-deliveries");
        api = tenant.chats();
        receiver = new Receiver();
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    JsonNode register(String... types) {
        String list = String.join("\", \"", types);
        Api.Reply created = api.post(
                "/api/v1/webhooks", "{\"url\": \"" + receiver.url() + "\", \"event_types\": [\"" + list + "\"]}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json();
    }

    @Test
    void aRepliedFrameSendsBothMessagesThenTheDeleteInOrderSigned() throws Exception {
        String secret =
                register("chat.message.created", "chat.deleted").get("secret").asString();
        String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student-1\"}")
                .json()
                .get("id")
                .asString();

        try (ChatSocket socket = tenant.socket("student-1", chatId)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("What is a fraction?");
            socket.awaitEvent("message_stream_ended");
        }
        Receiver.Received question = receiver.next(WAIT);
        Receiver.Received answer = receiver.next(WAIT);
        assertThat(api.delete("/api/v1/chats/" + chatId).status()).isEqualTo(200);
        Receiver.Received deleted = receiver.next(WAIT);

        for (Receiver.Received delivery : List.of(question, answer, deleted)) {
            assertThat(delivery.header("content-type")).startsWith("application/json");
            assertThat(verified(delivery, secret))
                    .as("signed with the endpoint's secret")
                    .isTrue();
            long timestamp = Long.parseLong(delivery.header("webhook-timestamp"));
            assertThat(Math.abs(Instant.now().getEpochSecond() - timestamp)).isLessThan(30);
            UUID.fromString(delivery.header("webhook-id"));
        }
        JsonNode asked = Api.JSON.readTree(question.body());
        assertThat(asked.get("type").asString()).isEqualTo("chat.message.created");
        assertThat(asked.get("timestamp").asString()).isNotBlank();
        assertThat(asked.get("data").get("chat_id").asString()).isEqualTo(chatId);
        JsonNode message = asked.get("data").get("message");
        assertThat(message.get("sender_role").asString()).isEqualTo("user");
        assertThat(message.get("content").asString()).isEqualTo("What is a fraction?");
        assertThat(message.get("metadata").get("user_id").asString()).isEqualTo("student-1");
        JsonNode answered = Api.JSON.readTree(answer.body());
        assertThat(answered.get("data").get("message").get("sender_role").asString())
                .isEqualTo("assistant");
        JsonNode gone = Api.JSON.readTree(deleted.body());
        assertThat(gone.get("type").asString()).isEqualTo("chat.deleted");
        assertThat(gone.get("data").toString()).isEqualTo("{\"chat_id\":\"" + chatId + "\"}");
        assertThat(List.of(question, answer, deleted).stream()
                        .map(delivery -> delivery.header("webhook-id"))
                        .distinct())
                .hasSize(3);

        assertThat(verified(question, "whsec_" + Base64.getEncoder().encodeToString(new byte[32])))
                .as("a wrong secret does not verify")
                .isFalse();
    }

    @Test
    void aFailedAttemptIsRetriedWithTheSameIdUntilAnswered2xx() throws Exception {
        String endpoint = register("chat.deleted").get("id").asString();
        receiver.answer(500);
        String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student-2\"}")
                .json()
                .get("id")
                .asString();
        assertThat(api.delete("/api/v1/chats/" + chatId).status()).isEqualTo(200);

        Receiver.Received first = receiver.next(WAIT);
        Receiver.Received second = receiver.next(WAIT);
        assertThat(second.header("webhook-id")).isEqualTo(first.header("webhook-id"));
        assertThat(second.body()).isEqualTo(first.body());

        // the receiver has answered; the deliverer records that a moment later
        JsonNode listed = Eventually.value(WAIT, () -> {
            JsonNode page =
                    api.get("/api/v1/webhooks/" + endpoint + "/deliveries").json();
            return page.get("deliveries").get(0).get("status").asString().equals("pending") ? null : page;
        });
        assertThat(listed.get("total").asLong()).isEqualTo(1);
        assertThat(listed.get("has_more").asBoolean()).isFalse();
        JsonNode delivery = listed.get("deliveries").get(0);
        assertThat(delivery.get("event_id").asString()).isEqualTo(first.header("webhook-id"));
        assertThat(delivery.get("event_type").asString()).isEqualTo("chat.deleted");
        assertThat(delivery.get("status").asString()).isEqualTo("delivered");
        assertThat(delivery.get("attempts").asInt()).isEqualTo(2);
        assertThat(delivery.get("last_status_code").asInt()).isEqualTo(200);
        assertThat(delivery.get("next_attempt_at").isNull()).isTrue();
        assertThat(delivery.get("delivered_at").isNull()).isFalse();

        String deliveryId = delivery.get("id").asString();
        assertThat(api.post("/api/v1/webhooks/" + endpoint + "/deliveries/" + deliveryId + "/replay", "")
                        .status())
                .isEqualTo(202);
        Receiver.Received replayed = receiver.next(WAIT);
        assertThat(replayed.header("webhook-id"))
                .as("a replay is the same event")
                .isEqualTo(first.header("webhook-id"));
        assertThat(replayed.body()).isEqualTo(first.body());
        assertThat(api.post("/api/v1/webhooks/" + endpoint + "/deliveries/" + UUID.randomUUID() + "/replay", "")
                        .status())
                .isEqualTo(404);
        Api other = service.newTenant("webhook-deliveries-other").chats();
        assertThat(other.get("/api/v1/webhooks/" + endpoint + "/deliveries").status())
                .isEqualTo(404);
        assertThat(other.post("/api/v1/webhooks/" + endpoint + "/deliveries/" + deliveryId + "/replay", "")
                        .status())
                .isEqualTo(404);
    }

    @Test
    void aReceiverThatIsDownGetsTheDeliveryOnceItIsBack() throws Exception {
        String endpoint = register("chat.deleted").get("id").asString();
        int port = receiver.port();
        receiver.close();
        String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student-5\"}")
                .json()
                .get("id")
                .asString();
        assertThat(api.delete("/api/v1/chats/" + chatId).status()).isEqualTo(200);

        JsonNode refused = Eventually.value(WAIT, () -> {
            JsonNode first = api.get("/api/v1/webhooks/" + endpoint + "/deliveries")
                    .json()
                    .get("deliveries")
                    .get(0);
            return first == null || first.get("attempts").asInt() == 0 ? null : first;
        });
        assertThat(refused.get("attempts").asInt()).isEqualTo(1);
        assertThat(refused.get("status").asString()).isEqualTo("pending");
        assertThat(refused.get("last_status_code").isNull()).isTrue();
        assertThat(refused.get("last_error").asString()).as("no answer came").isNotBlank();

        receiver = new Receiver(port);
        Receiver.Received delivered = receiver.next(WAIT);
        assertThat(delivered.header("webhook-id"))
                .isEqualTo(refused.get("event_id").asString());
        assertThat(Api.JSON
                        .readTree(delivered.body())
                        .get("data")
                        .get("chat_id")
                        .asString())
                .isEqualTo(chatId);
    }

    /**
     * A replay is due at once: it does not wait behind its own event's delivery still pending, which waits for a
     * retry an hour away, nor does it hold up the chat's next event.
     */
    @Test
    void aReplayOfADeliveryStillWaitingForItsRetryGoesOutAtOnce() throws Exception {
        String endpoint = register("chat.deleted").get("id").asString();
        int port = receiver.port();
        receiver.close();
        String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student-6\"}")
                .json()
                .get("id")
                .asString();
        assertThat(api.delete("/api/v1/chats/" + chatId).status()).isEqualTo(200);
        JsonNode waiting = Eventually.value(WAIT, () -> {
            JsonNode first = api.get("/api/v1/webhooks/" + endpoint + "/deliveries")
                    .json()
                    .get("deliveries")
                    .get(0);
            return first == null || first.get("attempts").asInt() == 0 ? null : first;
        });
        // its next attempt, as after several failures
        jdbc.sql("UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE id = :id::uuid")
                .param("id", waiting.get("id").asString())
                .update();
        receiver = new Receiver(port);

        assertThat(api.post(
                                "/api/v1/webhooks/" + endpoint + "/deliveries/"
                                        + waiting.get("id").asString() + "/replay",
                                "")
                        .status())
                .isEqualTo(202);

        Receiver.Received replayed = receiver.next(WAIT);
        assertThat(replayed.header("webhook-id"))
                .isEqualTo(waiting.get("event_id").asString());
        assertThat(api.get("/api/v1/webhooks/" + endpoint + "/deliveries")
                        .json()
                        .get("deliveries")
                        .valueStream()
                        .filter(delivery -> delivery.get("id")
                                .asString()
                                .equals(waiting.get("id").asString()))
                        .findFirst()
                        .orElseThrow()
                        .get("status")
                        .asString())
                .as("the original still waits for its own retry")
                .isEqualTo("pending");
    }

    @Test
    void aSlowReceiverHoldsUpNoOtherEndpoint() throws Exception {
        register("chat.deleted");
        receiver.delay(SLOW);
        try (Receiver fast = new Receiver()) {
            Api.Reply other = api.post(
                    "/api/v1/webhooks", "{\"url\": \"" + fast.url() + "\", \"event_types\": [\"chat.deleted\"]}");
            String otherId = other.json().get("id").asString();
            // the slow one's delivery is under way ...
            api.patch("/api/v1/webhooks/" + otherId, "{\"enabled\": false}");
            String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student-6\"}")
                    .json()
                    .get("id")
                    .asString();
            assertThat(api.delete("/api/v1/chats/" + chatId).status()).isEqualTo(200);
            Receiver.Received slow = receiver.next(WAIT);

            // ... while another endpoint's event is recorded: it is sent meanwhile, not after
            api.patch("/api/v1/webhooks/" + otherId, "{\"enabled\": true}");
            assertThat(api.post("/api/v1/webhooks/" + otherId + "/test", "").status())
                    .isEqualTo(202);
            Receiver.Received meanwhile = fast.next(WAIT);
            assertThat(Duration.ofNanos(meanwhile.nanoTime() - slow.nanoTime()))
                    .as("sent while the slow receiver still held its request")
                    .isLessThan(SLOW);
        }
    }

    @Test
    void aSlowEndpointHoldsAtMostFourDeliveriesInFlight() throws Exception {
        String id = register("chat.deleted").get("id").asString();
        receiver.delay(Duration.ofMillis(1500));
        // ten chats' events: none waits for another's (test events would, all of one key)
        for (int i = 0; i < 10; i++) {
            String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student-" + i + "\"}")
                    .json()
                    .get("id")
                    .asString();
            assertThat(api.delete("/api/v1/chats/" + chatId).status()).isEqualTo(200);
        }

        // watched from the first claim to the last request, however long the deliveries take
        int most = 0;
        List<Receiver.Received> sent = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (sent.size() < 10) {
            assertThat(System.nanoTime() - deadline)
                    .as("all 10 sent within 60 s")
                    .isNegative();
            int flying = jdbc.sql("""
                            SELECT count(*) FROM webhook_deliveries
                            WHERE endpoint_id = :id AND status = 'pending' AND locked_until >= now()""")
                    .param("id", java.util.UUID.fromString(id))
                    .query(Integer.class)
                    .single();
            most = Math.max(most, flying);
            sent.addAll(receiver.drain());
            Thread.sleep(50);
        }
        assertThat(most).as("deliveries of the endpoint claimed at once").isEqualTo(4);
    }

    @Test
    void aTestEventAndBothSecretsDuringARotation() throws Exception {
        JsonNode created = register("submission.reviewed");
        String id = created.get("id").asString();
        String first = created.get("secret").asString();
        String second = api.post("/api/v1/webhooks/" + id + "/rotate-secret", "")
                .json()
                .get("secret")
                .asString();

        assertThat(api.post("/api/v1/webhooks/" + id + "/test", "").status()).isEqualTo(202);
        Receiver.Received test = receiver.next(WAIT);

        assertThat(Api.JSON.readTree(test.body()).get("type").asString()).isEqualTo("webhook.test");
        assertThat(Objects.requireNonNull(test.header("webhook-signature"), "every delivery is signed")
                        .split(" "))
                .hasSize(2);
        assertThat(verified(test, first))
                .as("the previous secret signs during the overlap")
                .isTrue();
        assertThat(verified(test, second)).as("the new secret signs").isTrue();
    }

    @Test
    void anUploadIsCreatedThenReviewedAndTheTeachersDecisionIsDecidedEachAsTheRestApiShowsIt() throws Exception {
        String secret = register(
                        "submission.created", "submission.reviewed", "submission.review_failed", "submission.decided")
                .get("secret")
                .asString();
        Api homework = tenant.homework();
        String course = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}")
                .json()
                .get("id")
                .asString();
        String homeworkId = homework.post("/v1/homeworks", """
                        {"teacherId": "t-1", "courseId": "%s", "assignmentId": "add-1",
                         "files": [{"fileType": "task", "fileName": "task.md", "content": "Write add(a, b)."}]}""".formatted(course))
                .json()
                .get("id")
                .asString();
        Api.Reply uploaded = homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Api.Multipart()
                        .field("studentId", "student-1")
                        .file("main.py", "def add(a, b):\n    return a + b\n"));
        assertThat(uploaded.status()).as(uploaded.toString()).isEqualTo(201);
        String submissionId = uploaded.json().get("id").asString();

        Receiver.Received created = receiver.next(WAIT);
        Receiver.Received reviewed = receiver.next(WAIT);
        String path = "/v1/homeworks/" + homeworkId + "/submissions/" + submissionId;
        assertThat(homework.patch(path, """
                                {"status": "approved", "teacherId": "t-1", "comment": "Good.",
                                 "criteria": [{"criterionId": "completeness", "points": 3, "comment": "Short."}]}""").status()).isEqualTo(200);
        Receiver.Received decided = receiver.next(WAIT);

        JsonNode now = homework.get(path).json();
        for (Receiver.Received delivery : List.of(created, reviewed, decided)) {
            assertThat(verified(delivery, secret)).isTrue();
            assertThat(Api.JSON.readTree(delivery.body()).get("data").get("id").asString())
                    .isEqualTo(submissionId);
        }
        assertThat(Api.JSON.readTree(created.body()).get("type").asString()).isEqualTo("submission.created");
        JsonNode review = Api.JSON.readTree(reviewed.body());
        assertThat(review.get("type").asString()).isEqualTo("submission.reviewed");
        assertThat(review.get("data").get("grade").asString())
                .as("the review's grade, before the teacher changed the points")
                .isEqualTo(now.get("aiGrade").asString());
        assertThat(review.get("data").get("analysis").asString())
                .isEqualTo(now.get("analysis").asString());
        for (String field : List.of("aiCriteria", "findings", "flags")) {
            assertThat(review.get("data").get(field)).as(field).isEqualTo(now.get(field));
        }
        assertThat(now.get("criteria").size()).isPositive();
        assertThat(review.get("data").get("status").asString()).isEqualTo("reviewed");
        JsonNode decision = Api.JSON.readTree(decided.body());
        assertThat(decision.get("type").asString()).isEqualTo("submission.decided");
        assertThat(List.copyOf(decision.get("data").propertyNames()))
                .as("the submission as GET returns it")
                .isEqualTo(List.copyOf(now.propertyNames()));
        assertThat(decision.get("data").get("status").asString()).isEqualTo("approved");
        assertThat(decision.get("data").get("decisions").toString())
                .isEqualTo(now.get("decisions").toString());
        for (String field : List.of("grade", "aiGrade", "criteria", "aiCriteria", "comment")) {
            assertThat(decision.get("data").get(field))
                    .as("the final points: " + field)
                    .isEqualTo(now.get(field));
        }
        assertThat(decision.get("data").get("criteria").toString())
                .contains("{\"criterionId\":\"completeness\",\"title\":\"Hands in what was asked\",\"points\":3,");
    }

    @Test
    void aReviewThatFailsForGoodIsReviewFailed() throws Exception {
        register("submission.review_failed");
        Api homework = tenant.homework();
        String course = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}")
                .json()
                .get("id")
                .asString();
        String homeworkId = homework.post("/v1/homeworks", """
                        {"teacherId": "t-1", "courseId": "%s", "assignmentId": "add-2",
                         "files": [{"fileType": "task", "fileName": "task.md", "content": "Write add(a, b)."}]}""".formatted(course))
                .json()
                .get("id")
                .asString();
        String submissionId = homework.upload(
                        "/v1/homeworks/" + homeworkId + "/submissions",
                        new Api.Multipart()
                                .field("studentId", "student-3")
                                .file(
                                        "main.py",
                                        "def add(a, b):\n    return a + b\n# [[review-fails:webhook-failed]]\n"))
                .json()
                .get("id")
                .asString();

        JsonNode failed = Api.JSON.readTree(receiver.next(WAIT).body());

        assertThat(failed.get("type").asString()).isEqualTo("submission.review_failed");
        assertThat(failed.get("data").get("id").asString()).isEqualTo(submissionId);
        assertThat(failed.get("data").get("review").get("state").asString()).isEqualTo("failed");
    }

    @Test
    void theStandardWebhooksVerifierAcceptsADeliveryAndRefusesAWrongSecretATamperedBodyAndAStaleTimestamp()
            throws Exception {
        JsonNode created = register("chat.deleted");
        String secret = created.get("secret").asString();
        assertThat(api.post("/api/v1/webhooks/" + created.get("id").asString() + "/test", "")
                        .status())
                .isEqualTo(202);
        Receiver.Received delivery = receiver.next(WAIT);
        java.util.Map<String, String> headers = java.util.Map.of(
                "webhook-id", delivery.header("webhook-id"),
                "webhook-timestamp", delivery.header("webhook-timestamp"),
                "webhook-signature", delivery.header("webhook-signature"));

        StandardWebhooksVerifier.Verdict genuine = StandardWebhooksVerifier.verify(secret, headers, delivery.body());
        assertThat(genuine.verified()).as(genuine.output()).isTrue();

        String otherSecret = "whsec_" + Base64.getEncoder().encodeToString(new byte[32]);
        assertThat(StandardWebhooksVerifier.verify(otherSecret, headers, delivery.body())
                        .verified())
                .as("a wrong secret")
                .isFalse();
        assertThat(StandardWebhooksVerifier.verify(
                                secret, headers, delivery.body().replace("webhook.test", "chat.deleted"))
                        .verified())
                .as("a tampered body")
                .isFalse();

        long stale = Long.parseLong(delivery.header("webhook-timestamp")) - 600;
        java.util.Map<String, String> resigned = java.util.Map.of(
                "webhook-id", delivery.header("webhook-id"),
                "webhook-timestamp", Long.toString(stale),
                "webhook-signature",
                        signature(
                                secret,
                                Objects.requireNonNull(delivery.header("webhook-id"), "every delivery has an id"),
                                stale,
                                delivery.body()));
        StandardWebhooksVerifier.Verdict old = StandardWebhooksVerifier.verify(secret, resigned, delivery.body());
        assertThat(old.verified()).as("signed right, ten minutes ago").isFalse();
        assertThat(old.output()).containsIgnoringCase("timestamp");
    }

    static String signature(String secret, String id, long timestamp, String body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
        return "v1,"
                + Base64.getEncoder()
                        .encodeToString(
                                mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aChatsLaterEventsWaitForItsEarlierOneBeingRetriedWhileAnotherChatsGoOn() throws Exception {
        register("chat.message.created");
        String chatA = api.post("/api/v1/chats", "{\"user_id\": \"student-a\"}")
                .json()
                .get("id")
                .asString();
        String chatB = api.post("/api/v1/chats", "{\"user_id\": \"student-b\"}")
                .json()
                .get("id")
                .asString();
        receiver.answer(500);
        converse(chatA, "student-a");
        Receiver.Received refused = receiver.next(WAIT);
        assertThat(chatOf(refused)).isEqualTo(chatA);
        converse(chatB, "student-b");

        List<Receiver.Received> next =
                List.of(receiver.next(WAIT), receiver.next(WAIT), receiver.next(WAIT), receiver.next(WAIT));

        List<String> chats =
                next.stream().map(WebhookDeliveryIntegrationTests::chatOf).toList();
        assertThat(chats.getFirst())
                .as("chat B's first event does not wait for chat A's retry (5 s): %s", chats)
                .isEqualTo(chatB);
        List<Receiver.Received> ofA =
                next.stream().filter(delivery -> chatOf(delivery).equals(chatA)).toList();
        List<Receiver.Received> ofB =
                next.stream().filter(delivery -> chatOf(delivery).equals(chatB)).toList();
        assertThat(ofA).hasSize(2);
        assertThat(ofA.getFirst().header("webhook-id"))
                .as("chat A's question, retried, comes before its answer")
                .isEqualTo(refused.header("webhook-id"));
        assertThat(ofA.stream().map(WebhookDeliveryIntegrationTests::roleOf).toList())
                .containsExactly("user", "assistant");
        assertThat(ofB.stream().map(WebhookDeliveryIntegrationTests::roleOf).toList())
                .containsExactly("user", "assistant");
    }

    private void converse(String chatId, String userId) {
        try (ChatSocket socket = tenant.socket(userId, chatId)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("Order, please");
            socket.awaitEvent("message_stream_ended");
        }
    }

    private static String chatOf(Receiver.Received delivery) {
        return Api.JSON.readTree(delivery.body()).get("data").get("chat_id").asString();
    }

    private static String roleOf(Receiver.Received delivery) {
        return Api.JSON
                .readTree(delivery.body())
                .get("data")
                .get("message")
                .get("sender_role")
                .asString();
    }

    @Test
    void aDeliveryThatNeverSucceedsFailsAndDisablesAnEndpointNothingReached() throws Exception {
        String endpoint = register("chat.deleted").get("id").asString();
        receiver.answer(500, 502, 503);
        String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student-9\"}")
                .json()
                .get("id")
                .asString();
        assertThat(api.delete("/api/v1/chats/" + chatId).status()).isEqualTo(200);
        for (int attempt = 0; attempt < 3; attempt++) {
            receiver.next(WAIT); // the test's retry delays: 5 s, then 1 s, then it gives up
        }

        JsonNode disabled = Eventually.value(WAIT, () -> {
            JsonNode read = api.get("/api/v1/webhooks/" + endpoint).json();
            return read.get("enabled").asBoolean() ? null : read;
        });
        assertThat(disabled.get("disabled_reason").asString()).contains("503");
        JsonNode delivery = api.get("/api/v1/webhooks/" + endpoint + "/deliveries")
                .json()
                .get("deliveries")
                .get(0);
        assertThat(delivery.get("status").asString()).isEqualTo("failed");
        assertThat(delivery.get("attempts").asInt()).isEqualTo(3);
        assertThat(delivery.get("last_status_code").asInt()).isEqualTo(503);
        assertThat(delivery.get("last_error").asString())
                .as("nothing of what the URL answered can be read back")
                .isEqualTo("answered 503");
        assertThat(disabled.get("disabled_reason").asString()).doesNotContain("hunter2");
        assertThat(delivery.get("next_attempt_at").isNull()).isTrue();
    }

    /** Standard Webhooks verification: some v1 signature is the HMAC-SHA256 of id.timestamp.body. */
    static boolean verified(Receiver.Received delivery, String secret) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
        String expected = "v1,"
                + Base64.getEncoder()
                        .encodeToString(mac.doFinal((delivery.header("webhook-id") + "."
                                        + delivery.header("webhook-timestamp") + "." + delivery.body())
                                .getBytes(StandardCharsets.UTF_8)));
        return List.of(Objects.requireNonNull(delivery.header("webhook-signature"), "every delivery is signed")
                        .split(" "))
                .contains(expected);
    }
}
