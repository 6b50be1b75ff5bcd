package com.chatreview.idempotency;

import com.chatreview.database.Sql;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.ServiceError;
import com.chatreview.kernel.Sha256;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs a creating request at most once per {@code Idempotency-Key}. The request's work and the record of its
 * response commit in one transaction, so a replay can never point at something that was not stored, and a
 * crash in between leaves the key free for the retry. While the first request runs, a second one with the
 * same key gets 409 at once instead of waiting (a transaction-scoped advisory lock tells them apart).
 */
@Service
public class IdempotentRequests {

    public static final String HEADER = "Idempotency-Key";
    static final Duration RETENTION = Duration.ofHours(24);
    private static final int MAX_KEY_LENGTH = 255;

    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;
    private final JsonMapper json;
    /** Writes a request with every object's fields in name order: its content, not its layout. */
    private final JsonMapper canonical;

    IdempotentRequests(JdbcClient jdbc, TransactionTemplate transaction, JsonMapper json) {
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.json = json;
        this.canonical = json.rebuild()
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .build();
    }

    /** A response to keep: its status and body. */
    public record Response(HttpStatus status, Object body) {}

    /**
     * {@link #run} for a JSON request: two requests are the same when their JSON content is, whatever the order of
     * the fields (of the body and of every object in it) and the spacing. A record kept before this form was used
     * (at most 24 hours old) matches the request as it was then written, in the order the client sent.
     */
    public ResponseEntity<Object> runJson(
            UUID tenantId, @Nullable String key, String operation, Object request, Supplier<Response> work) {
        return run(
                tenantId,
                key,
                operation,
                canonical.writeValueAsBytes(request),
                fingerprint(operation, json.writeValueAsBytes(request)),
                work);
    }

    /**
     * Runs {@code work} in a transaction, or replays the response it gave the first time.
     *
     * @param key the client's {@code Idempotency-Key}, or {@code null} to simply run the work
     * @param operation names the endpoint, so that one key cannot replay another endpoint's response
     * @param request what makes two requests "the same": the request's content in a canonical form
     */
    public ResponseEntity<Object> run(
            UUID tenantId, @Nullable String key, String operation, byte[] request, Supplier<Response> work) {
        return run(tenantId, key, operation, request, null, work);
    }

    private ResponseEntity<Object> run(
            UUID tenantId,
            @Nullable String key,
            String operation,
            byte[] request,
            byte @Nullable [] formerFingerprint,
            Supplier<Response> work) {
        if (key == null) {
            Response response = transaction.execute(status -> work.get());
            return ResponseEntity.status(response.status()).body(response.body());
        }
        checkKey(key);
        byte[] fingerprint = fingerprint(operation, request);
        return transaction.execute(status -> {
            if (!lock(tenantId, key)) {
                throw new IdempotencyKeyInUse();
            }
            Optional<Stored> earlier = find(tenantId, key);
            if (earlier.isPresent()) {
                byte[] kept = earlier.get().fingerprint();
                if (!Arrays.equals(kept, fingerprint) && !Arrays.equals(kept, formerFingerprint)) {
                    throw new IdempotencyKeyReused();
                }
                return ResponseEntity.status(earlier.get().status())
                        .contentType(MediaType.APPLICATION_JSON)
                        .header("Idempotent-Replayed", "true")
                        .body(earlier.get().body());
            }
            Response response = work.get();
            String body = json.writeValueAsString(response.body());
            save(tenantId, key, operation, fingerprint, response.status().value(), body);
            return ResponseEntity.status(response.status())
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(body);
        });
    }

    /** Forgets responses older than 24 hours. */
    @Scheduled(fixedDelayString = "PT1H", initialDelayString = "PT1M")
    void forgetExpired() {
        jdbc.sql("DELETE FROM idempotency_records WHERE created_at < :cutoff")
                .param("cutoff", Sql.at(Instant.now().minus(RETENTION)))
                .update();
    }

    private record Stored(byte[] fingerprint, int status, String body) {}

    private Optional<Stored> find(UUID tenantId, String key) {
        return jdbc.sql("""
                SELECT fingerprint, response_status, response_body FROM idempotency_records
                WHERE tenant_id = :tenant AND idempotency_key = :key AND created_at >= :cutoff""")
                .param("tenant", tenantId)
                .param("key", key)
                .param("cutoff", Sql.at(Instant.now().minus(RETENTION)))
                .query((rs, n) -> new Stored(
                        rs.getBytes("fingerprint"), rs.getInt("response_status"), rs.getString("response_body")))
                .optional();
    }

    private void save(UUID tenantId, String key, String operation, byte[] fingerprint, int status, String body) {
        jdbc.sql("""
                INSERT INTO idempotency_records (tenant_id, idempotency_key, operation, fingerprint, response_status,
                                                 response_body, created_at)
                VALUES (:tenant, :key, :operation, :fingerprint, :status, :body, :now)
                ON CONFLICT (tenant_id, idempotency_key) DO UPDATE SET
                    operation = EXCLUDED.operation, fingerprint = EXCLUDED.fingerprint,
                    response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body,
                    created_at = EXCLUDED.created_at""")
                .param("tenant", tenantId)
                .param("key", key)
                .param("operation", operation)
                .param("fingerprint", fingerprint)
                .param("status", status)
                .param("body", body)
                .param("now", Sql.at(Instant.now()))
                .update();
    }

    private boolean lock(UUID tenantId, String key) {
        long id = java.nio.ByteBuffer.wrap(Sha256.of((tenantId + "\n" + key).getBytes(StandardCharsets.UTF_8)))
                .getLong();
        return Boolean.TRUE.equals(jdbc.sql("SELECT pg_try_advisory_xact_lock(:id)")
                .param("id", id)
                .query(Boolean.class)
                .single());
    }

    private static void checkKey(String key) {
        if (key.isBlank() || key.length() > MAX_KEY_LENGTH) {
            throw InvalidInput.field(
                    HEADER,
                    "must be 1 to " + MAX_KEY_LENGTH + " characters",
                    "Send a unique key, a UUID for instance.");
        }
    }

    private static byte[] fingerprint(String operation, byte[] request) {
        byte[] op = (operation + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] all = Arrays.copyOf(op, op.length + request.length);
        System.arraycopy(request, 0, all, op.length, request.length);
        return Sha256.of(all);
    }

    static final class IdempotencyKeyInUse extends ServiceError {
        IdempotencyKeyInUse() {
            super(
                    Code.IDEMPOTENCY_KEY_IN_USE,
                    "A request with this Idempotency-Key is still running",
                    "Wait for the first request to finish, then retry: you will get its response.");
        }
    }

    static final class IdempotencyKeyReused extends ServiceError {
        IdempotencyKeyReused() {
            super(
                    Code.IDEMPOTENCY_KEY_REUSED,
                    "This Idempotency-Key was used with a different request in the last 24 hours",
                    "Use a new Idempotency-Key for a new request.");
        }
    }
}
