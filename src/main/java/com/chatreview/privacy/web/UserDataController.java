package com.chatreview.privacy.web;

import com.chatreview.privacy.UserDataExport;
import com.chatreview.tenancy.Tenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

/** A user's data (docs/privacy.md): the export. */
@RestController
@Tag(name = "Students' data")
@SecurityRequirement(name = "X-API-Key")
class UserDataController {

    private final UserDataExport export;
    private final JsonMapper json;

    UserDataController(UserDataExport export, JsonMapper json) {
        this.export = export;
        this.json = json;
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
