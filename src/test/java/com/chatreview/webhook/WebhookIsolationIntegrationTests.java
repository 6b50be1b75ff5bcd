package com.chatreview.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * One tenant's webhooks never carry another's events, and no endpoint or delivery of one tenant can be used by
 * another: every way in, by id, answers 404 as for an id that does not exist.
 */
@IntegrationTest
class WebhookIsolationIntegrationTests {

    static final Duration WAIT = Duration.ofSeconds(20);
    static final String EVERY_EVENT = "[\"chat.message.created\", \"chat.deleted\", \"submission.created\","
            + " \"submission.reviewed\", \"submission.review_failed\", \"submission.decided\","
            + " \"usage.budget_threshold\"]";

    TestTenant a;
    TestTenant b;
    Receiver receiverOfA;
    Receiver receiverOfB;
    String endpointOfA;
    String endpointOfB;

    @BeforeEach
    void twoTenantsWithAReceiverEach(TestService service) throws Exception {
        a = service.newTenant("webhooks-a");
        b = service.newTenant("webhooks-b");
        receiverOfA = new Receiver();
        receiverOfB = new Receiver();
        endpointOfA = register(a, receiverOfA);
        endpointOfB = register(b, receiverOfB);
    }

    @AfterEach
    void stopReceivers() {
        receiverOfA.close();
        receiverOfB.close();
    }

    @Test
    void aTenantsReceiverGetsOnlyItsOwnEvents() throws Exception {
        String chatOfA = chat(a, "student-a");
        assertThat(a.chats().delete("/api/v1/chats/" + chatOfA).status()).isEqualTo(200);
        String homeworkOfA = a.publishHomework("isolation-1");
        String submissionOfA = upload(a, homeworkOfA);
        // events of different chats and submissions are not ordered among themselves: the review of A's submission
        // (its chat's messages, its submission.reviewed) may come before or between these, and is A's own too
        List<String> ofA = typesUntil(receiverOfA, List.of("chat.deleted", "submission.created"));
        assertThat(ofA)
                .contains("chat.deleted", "submission.created")
                .allMatch(type -> type.equals("chat.deleted")
                        || type.equals("chat.message.created")
                        || type.startsWith("submission."));

        // B's own event, recorded after A's: had any of A's been routed to B, it would have come first
        String chatOfB = chat(b, "student-b");
        assertThat(b.chats().delete("/api/v1/chats/" + chatOfB).status()).isEqualTo(200);
        Receiver.Received first = receiverOfB.next(WAIT);

        JsonNode event = Api.JSON.readTree(first.body());
        assertThat(event.get("type").asString()).isEqualTo("chat.deleted");
        assertThat(event.get("data").get("chat_id").asString()).isEqualTo(chatOfB);
        assertThat(receiverOfB.drain())
                .extracting(Receiver.Received::body)
                .noneMatch(body -> body.contains(chatOfA) || body.contains(submissionOfA));
    }

    @Test
    void anotherTenantsEndpointsAndDeliveriesAreNotFoundByAnyWayIn() throws Exception {
        String chatOfA = chat(a, "student-a");
        a.chats().delete("/api/v1/chats/" + chatOfA);
        receiverOfA.next(WAIT);
        JsonNode deliveries =
                a.chats().get("/api/v1/webhooks/" + endpointOfA + "/deliveries").json();
        String deliveryOfA = deliveries.get("deliveries").get(0).get("id").asString();
        Api asB = b.chats();

        assertThat(asB.get("/api/v1/webhooks/" + endpointOfA).status()).isEqualTo(404);
        assertThat(asB.get("/api/v1/webhooks/" + endpointOfA + "/deliveries").status())
                .isEqualTo(404);
        assertThat(asB.post("/api/v1/webhooks/" + endpointOfA + "/test", "").status())
                .isEqualTo(404);
        assertThat(asB.post("/api/v1/webhooks/" + endpointOfA + "/rotate-secret", "")
                        .status())
                .isEqualTo(404);
        assertThat(asB.patch("/api/v1/webhooks/" + endpointOfA, "{\"enabled\": false}")
                        .status())
                .isEqualTo(404);
        assertThat(asB.post("/api/v1/webhooks/" + endpointOfA + "/deliveries/" + deliveryOfA + "/replay", "")
                        .status())
                .isEqualTo(404);
        assertThat(asB.post("/api/v1/webhooks/" + endpointOfB + "/deliveries/" + deliveryOfA + "/replay", "")
                        .status())
                .as("A's delivery through B's own endpoint")
                .isEqualTo(404);
        assertThat(asB.delete("/api/v1/webhooks/" + endpointOfA).status()).isEqualTo(404);
        assertThat(asB.get("/api/v1/webhooks").json().toString()).doesNotContain(endpointOfA);

        // B's test event reaches B's receiver, and it is the first and only thing B's receiver got
        assertThat(asB.post("/api/v1/webhooks/" + endpointOfB + "/test", "").status())
                .isEqualTo(202);
        assertThat(Api.JSON.readTree(receiverOfB.next(WAIT).body()).get("type").asString())
                .isEqualTo("webhook.test");
        assertThat(receiverOfB.drain()).isEmpty();
        JsonNode stillA = a.chats().get("/api/v1/webhooks/" + endpointOfA).json();
        assertThat(stillA.get("enabled").asBoolean())
                .as("B's PATCH changed nothing")
                .isTrue();
        assertThat(a.chats()
                        .get("/api/v1/webhooks/" + endpointOfA + "/deliveries")
                        .json()
                        .get("total")
                        .asInt())
                .as("no replay of A's delivery was made")
                .isEqualTo(deliveries.get("total").asInt());
    }

    @Test
    void theOperatorsRetryNamesTheTenantWhoseSubmissionItIs() {
        String submissionOfA = upload(a, a.publishHomework("isolation-2"));
        Api operator = new Api(a.port()).with("X-Admin-Token", SharedTestConfiguration.ADMIN_TOKEN);

        Api.Reply underB =
                operator.post("/admin/v1/tenants/" + b.id() + "/submissions/" + submissionOfA + "/review", "");

        assertThat(underB.status())
                .as("A's submission under B's id: not found, not a conflict")
                .isEqualTo(404);
        assertThat(underB.json().get("code").asString()).isEqualTo("NOT_FOUND");
        assertThat(operator.post("/admin/v1/tenants/" + a.id() + "/submissions/" + submissionOfA + "/review", "")
                        .status())
                .as("under A's own id it is found (and pending, so 409)")
                .isEqualTo(409);
    }

    private static String register(TestTenant tenant, Receiver receiver) {
        Api.Reply created = tenant.chats()
                .post(
                        "/api/v1/webhooks",
                        "{\"url\": \"" + receiver.url() + "\", \"event_types\": " + EVERY_EVENT + "}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("id").asString();
    }

    private static String chat(TestTenant tenant, String userId) {
        return tenant.chats()
                .post("/api/v1/chats", "{\"user_id\": \"" + userId + "\"}")
                .json()
                .get("id")
                .asString();
    }

    private static String upload(TestTenant tenant, String homeworkId) {
        return tenant.upload(homeworkId, "student-1", "main.py", "print(1)\n")
                .get("id")
                .asString();
    }

    /** The types of the events the receiver gets until it has had each of {@code awaited}. */
    private static List<String> typesUntil(Receiver receiver, List<String> awaited) throws InterruptedException {
        List<String> types = new ArrayList<>();
        while (!types.containsAll(awaited)) {
            types.add(Api.JSON.readTree(receiver.next(WAIT).body()).get("type").asString());
        }
        return types;
    }
}
