package com.chatreview.privacy.web;

import com.chatreview.privacy.Erasure;
import com.chatreview.privacy.UserDataExport;
import com.chatreview.privacy.UserErasure;
import com.chatreview.tenancy.Tenant;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

/** A user's data (docs/privacy.md): the export and the erasure. */
@RestController
@Tag(name = "Students' data")
@SecurityRequirement(name = "X-API-Key")
class UserDataController {

    private final UserDataExport export;
    private final UserErasure erasure;
    private final JsonMapper json;

    UserDataController(UserDataExport export, UserErasure erasure, JsonMapper json) {
        this.export = export;
        this.erasure = erasure;
        this.json = json;
    }

    record ErasureStarted(@JsonProperty("erasure_id") String erasureId, String status) {}

    record ErasedCounts(int chats, int messages, int submissions, int files) {}

    record ErasureBody(
            @JsonProperty("erasure_id") String erasureId,
            @JsonProperty("user_id_hash") String userIdHash,
            @Schema(allowableValues = {"running", "done"}) String status,
            @JsonProperty("started_at") Instant startedAt,
            @JsonProperty("finished_at") @Nullable Instant finishedAt,
            ErasedCounts erased) {

        static ErasureBody of(Erasure erasure) {
            return new ErasureBody(
                    erasure.id().toString(),
                    erasure.userIdHash(),
                    erasure.status().value(),
                    erasure.startedAt(),
                    erasure.finishedAt(),
                    new ErasedCounts(erasure.chats(), erasure.messages(), erasure.submissions(), erasure.files()));
        }
    }

    @DeleteMapping("/api/v1/users/{user_id}")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(
            summary = "Erase a user's data",
            description = "Starts the erasure of everything the tenant holds of the user, as a durable job; its"
                    + " status is at GET /api/v1/erasures/{erasure_id}. While it runs, the same request answers the"
                    + " same erasure. 404 for a user the tenant does not have.")
    ErasureStarted erase(Tenant tenant, @PathVariable("user_id") String userId) {
        Erasure started = erasure.start(tenant.id(), userId);
        return new ErasureStarted(started.id().toString(), started.status().value());
    }

    @GetMapping("/api/v1/erasures/{erasure_id}")
    @Operation(summary = "An erasure's status and what it erased")
    ErasureBody erasure(Tenant tenant, @PathVariable("erasure_id") UUID erasureId) {
        return ErasureBody.of(erasure.status(tenant.id(), erasureId));
    }

    /**
     * Written as it is read, on the request's own (virtual) thread: no asynchronous timeout cuts a long export short,
     * and the body is never whole in memory. A failure once the body has begun cannot become a problem response any
     * more: the connection is closed, and the client sees JSON that does not end.
     */
    @GetMapping("/api/v1/users/{user_id}/export")
    @Operation(
            summary = "Export a user's data",
            description = "Every chat of the user with every message, the user's submissions (studentId) with their"
                    + " files' names and texts, reviews and decisions, and the AI usage of the user's replies,"
                    + " streamed as one JSON object. 404 for a user the tenant does not have.")
    @ApiResponse(responseCode = "200", description = "The user's data, streamed")
    void export(Tenant tenant, @PathVariable("user_id") String userId, HttpServletResponse response)
            throws IOException {
        export.checkExists(tenant.id(), userId);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        try (JsonGenerator generator = json.createGenerator(response.getOutputStream())) {
            export.write(tenant.id(), userId, generator);
        }
    }
}
