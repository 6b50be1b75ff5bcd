package com.chatreview.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** 100 REST requests a minute per tenant, and 60 failed authentications a minute per address (docs/api.md, Rate limits). */
@SingleNodeToo
@IntegrationTest
class RateLimitIntegrationTests {

    static final int LIMIT = 100;
    static final int AUTH_FAILURES = 60;

    TestService service;

    @Autowired
    JdbcClient jdbc;

    TestTenant tenant;
    Api api;

    @BeforeEach
    void newTenant(TestService service) {
        this.service = service;
        tenant = service.newTenant("rate-limit-tests");
        api = service.api();
    }

    @Test
    void everyAuthenticatedResponseTellsWhatIsLeftOfTheMinute() {
        Reply first = tenant.chats(api).post("/api/v1/chats", "{\"user_id\": \"student-1\"}");
        Reply second = tenant.homework(api).get("/v1/homeworks");
        Reply notFound = tenant.chats(api).get("/api/v1/chats/" + UUID.randomUUID());
        Reply invalid = tenant.chats(api).get("/api/v1/chats/user/student-1?limit=0");

        assertThat(first.status()).isEqualTo(201);
        assertThat(notFound.status()).isEqualTo(404);
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(remaining(first)).isEqualTo(LIMIT - 1);
        assertThat(remaining(second)).isEqualTo(LIMIT - 2);
        assertThat(remaining(notFound)).isEqualTo(LIMIT - 3);
        assertThat(remaining(invalid)).isEqualTo(LIMIT - 4);
        for (Reply reply : new Reply[] {first, second, notFound, invalid}) {
            assertThat(reply.header("X-RateLimit-Limit")).as(reply.toString()).isEqualTo("100");
            assertThat(Long.parseLong(reply.header("X-RateLimit-Reset"))).isBetween(1L, 60L);
        }
    }

    @Test
    void the101stRequestOfTheMinuteIs429AndOtherTenantsAreUnaffected() {
        for (int i = 1; i <= LIMIT; i++) {
            Reply reply = i % 2 == 0
                    ? tenant.chats(api).get("/api/v1/chats/" + UUID.randomUUID())
                    : tenant.homework(api).get("/v1/homeworks?limit=1");
            assertThat(reply.status()).as("request " + i + ": " + reply).isIn(200, 404);
            assertThat(remaining(reply)).isEqualTo(LIMIT - i);
        }

        Reply limited = tenant.chats(api).post("/api/v1/chats", "{\"user_id\": \"student-1\"}");

        assertThat(limited.status()).as(limited.toString()).isEqualTo(429);
        assertThat(limited.header("Content-Type")).startsWith("application/problem+json");
        assertThat(limited.json().get("code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(limited.json().get("fix").asString()).isNotBlank();
        assertThat(limited.json().get("request_id").asString()).isEqualTo(limited.header("X-Request-Id"));
        long retryAfter = Long.parseLong(limited.header("Retry-After"));
        assertThat(retryAfter).isBetween(1L, 60L);
        assertThat(limited.header("X-RateLimit-Limit")).isEqualTo("100");
        assertThat(remaining(limited)).isZero();
        assertThat(Long.parseLong(limited.header("X-RateLimit-Reset"))).isBetween(1L, 60L);
        assertThat(tenant.homework(api).get("/v1/homeworks").status()).isEqualTo(429);
        assertThat(tenant.homework(api)
                        .upload(
                                "/v1/homeworks/" + UUID.randomUUID() + "/submissions",
                                new Api.Multipart().field("studentId", "s").file("a.txt", "a"))
                        .status())
                .isEqualTo(429);

        TestTenant other = service.newTenant("rate-limit-other");
        Reply unaffected = other.chats(api).post("/api/v1/chats", "{\"user_id\": \"student-1\"}");
        assertThat(unaffected.status()).isEqualTo(201);
        assertThat(remaining(unaffected)).isEqualTo(LIMIT - 1);
        assertThat(other.homework(api).get("/v1/homeworks").status()).isEqualTo(200);
    }

    @Test
    void aRateLimitedRequestDoesNothing() {
        for (int i = 0; i < LIMIT; i++) {
            tenant.homework(api).get("/v1/courses");
        }

        Reply limited = tenant.chats(api).post("/api/v1/chats", "{\"user_id\": \"too-late\"}");

        assertThat(limited.status()).isEqualTo(429);
        assertThat(jdbc.sql("SELECT count(*) FROM chats WHERE tenant_id = :tenant")
                        .param("tenant", tenant.uuid())
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void sixtyFailedAuthenticationsFromOneAddressSilenceItsGuessesForAMinute() {
        String address = randomAddress();
        Api fromThere = api.with("X-Forwarded-For", address);
        for (int i = 1; i <= AUTH_FAILURES; i++) {
            Api wrong = i % 3 == 0
                    ? fromThere
                    : fromThere.with(i % 3 == 1 ? "X-API-Key" : "x-tenant-api-secret", "crs_wrong-" + i);
            Reply reply = i % 2 == 0 ? wrong.get("/api/v1/chats/" + UUID.randomUUID()) : wrong.get("/v1/homeworks");
            assertThat(reply.status()).as("failure " + i + ": " + reply).isEqualTo(401);
        }

        Reply blocked = fromThere.with("X-API-Key", "crs_wrong").get("/api/v1/chats/" + UUID.randomUUID());

        assertThat(blocked.status()).as(blocked.toString()).isEqualTo(429);
        assertThat(blocked.header("Content-Type")).startsWith("application/problem+json");
        assertThat(blocked.json().get("code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(Long.parseLong(blocked.header("Retry-After"))).isBetween(1L, 60L);
        assertThat(fromThere
                        .with("x-tenant-api-secret", "crs_wrong")
                        .get("/v1/homeworks")
                        .status())
                .isEqualTo(429);
        assertThat(fromThere.get("/v1/homeworks").status()).as("no key at all").isEqualTo(429);
        // the budget refuses guesses, never a valid key (docs/api.md, Rate limits): the tenant's own requests are heard
        assertThat(tenant.chats(fromThere)
                        .get("/api/v1/chats/" + UUID.randomUUID())
                        .status())
                .isEqualTo(404);
        assertThat(tenant.homework(fromThere).get("/v1/homeworks").status()).isEqualTo(200);

        Api elsewhere = api.with("X-Forwarded-For", randomAddress());
        assertThat(elsewhere
                        .with("X-API-Key", "crs_wrong")
                        .get("/api/v1/chats/x")
                        .status())
                .isEqualTo(401);
        Reply allowed = tenant.chats(elsewhere).post("/api/v1/chats", "{\"user_id\": \"student-1\"}");
        assertThat(allowed.status()).isEqualTo(201);
        assertThat(remaining(allowed))
                .as("blocked requests cost the tenant nothing; its two heard ones count")
                .isEqualTo(LIMIT - 3);
    }

    @Test
    void failedAuthenticationsOfOneAddressDoNotTouchTheTenantsQuota() {
        Api fromThere = api.with("X-Forwarded-For", randomAddress());
        for (int i = 0; i < 10; i++) {
            assertThat(fromThere
                            .with("X-API-Key", tenant.apiKey() + "x")
                            .get("/api/v1/chats/x")
                            .status())
                    .isEqualTo(401);
        }

        Reply reply = tenant.chats(fromThere).get("/api/v1/chats/" + UUID.randomUUID());

        assertThat(reply.status()).isEqualTo(404);
        assertThat(remaining(reply)).isEqualTo(LIMIT - 1);
    }

    private static long remaining(Reply reply) {
        String remaining = reply.header("X-RateLimit-Remaining");
        assertThat(remaining).as("X-RateLimit-Remaining of " + reply).isNotNull();
        return Long.parseLong(remaining);
    }

    private static String randomAddress() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "172." + random.nextInt(16, 32) + "." + random.nextInt(256) + "." + random.nextInt(1, 255);
    }
}
