package com.chatreview.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.Eventually;
import com.chatreview.support.ServiceProcess;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The erasure is durable and resumable: the real service, killed with SIGKILL while it erases a user's chats, then
 * started again on the same data, finishes the erasure (the restarted node takes the job over once the killed one
 * missed its heartbeats), and its counts are exact (each chat is counted in the transaction that erased it). Not an {@code *IntegrationTests} class: it brings its own database, so it runs once.
 */
@Tag("process")
class ErasureRestartTests {

    static final int CHATS = 600;
    static final Duration PATIENCE = Duration.ofSeconds(120);

    static ServiceProcess service;

    @BeforeAll
    static void prepare() throws Exception {
        service = new ServiceProcess(
                "erasure-restart",
                Map.of(
                        // a killed node's erasure is taken over after 4 missed heartbeats of 500 ms
                        "PRIVACY_JOBHEARTBEAT", "500ms",
                        "PRIVACY_JOBMISSEDHEARTBEATS", "4",
                        "PRIVACY_JOBPOLLINTERVAL", "250ms",
                        "RATE_LIMIT_REST_PER_MINUTE", "100000"));
        service.start();
    }

    @AfterAll
    static void stopEverything() throws Exception {
        service.close();
    }

    @Test
    void anErasureKilledMidWayIsFinishedAfterTheRestartWithExactCounts() throws Exception {
        Api admin = new Api(service.port()).with("X-Admin-Token", ServiceProcess.ADMIN_TOKEN);
        Reply tenant = admin.post("/admin/v1/tenants", "{\"name\": \"erasure-restart\"}");
        assertThat(tenant.status()).as(tenant.toString()).isEqualTo(201);
        String apiKey = tenant.json().get("api_key").asString();
        Api chats = new Api(service.port()).with("X-API-Key", apiKey);
        for (int i = 0; i < CHATS; i++) {
            Reply created = chats.post("/api/v1/chats", "{\"user_id\": \"student-1\", \"title\": \"Chat " + i + "\"}");
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
        }
        chats.post("/api/v1/chats", "{\"user_id\": \"student-2\"}");

        String erasureId =
                chats.delete("/api/v1/users/student-1").json().get("erasure_id").asString();
        int countedAtTheKill = Eventually.value(PATIENCE, () -> {
            int counted = erased(chats, erasureId).get("erased").get("chats").asInt();
            return counted > 0 ? counted : null;
        });
        service.kill();
        service.start();
        Api restarted = new Api(service.port()).with("X-API-Key", apiKey);
        System.out.printf("Erasure killed after %d of %d chats%n", countedAtTheKill, CHATS);
        assertThat(countedAtTheKill).as("killed mid-way").isLessThan(CHATS);

        JsonNode done = Eventually.value(PATIENCE, () -> {
            JsonNode erasure = erased(restarted, erasureId);
            return erasure.get("status").asString().equals("done") ? erasure : null;
        });
        // each chat counted in the transaction that erased it: none lost in the kill, none counted twice by the rerun
        assertThat(done.get("erased").get("chats").asInt()).isEqualTo(CHATS);
        assertThat(done.get("erased").get("messages").asInt()).isZero();
        assertThat(restarted.get("/api/v1/chats/user/student-1").status()).isEqualTo(404);
        assertThat(restarted.get("/api/v1/users/student-1/export").status()).isEqualTo(404);
        assertThat(restarted.get("/api/v1/chats/user/student-2").status()).isEqualTo(200);
    }

    private static JsonNode erased(Api chats, String erasureId) {
        Reply erasure = chats.get("/api/v1/erasures/" + erasureId);
        assertThat(erasure.status()).as(erasure.toString()).isEqualTo(200);
        return erasure.json();
    }
}
