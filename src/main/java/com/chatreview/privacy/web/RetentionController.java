package com.chatreview.privacy.web;

import com.chatreview.kernel.InvalidInput;
import com.chatreview.privacy.DataRetention;
import com.chatreview.privacy.Retention;
import com.chatreview.tenancy.Tenant;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** How long the tenant keeps its users' data (docs/privacy.md, Retention). */
@RestController
@Tag(name = "Students' data")
@SecurityRequirement(name = "X-API-Key")
class RetentionController {

    private final DataRetention retention;

    RetentionController(DataRetention retention) {
        this.retention = retention;
    }

    record RetentionBody(
            @JsonProperty("messages_days") @Nullable Integer messagesDays,
            @JsonProperty("submissions_days") @Nullable Integer submissionsDays) {

        static RetentionBody of(Retention retention) {
            return new RetentionBody(retention.messagesDays(), retention.submissionsDays());
        }
    }

    @GetMapping("/api/v1/settings/retention")
    @Operation(summary = "How long the tenant keeps its users' data (null: until deleted)")
    RetentionBody retention(Tenant tenant) {
        return RetentionBody.of(retention.of(tenant.id()));
    }

    @PutMapping("/api/v1/settings/retention")
    @Operation(
            summary = "Set how long the tenant keeps its users' data",
            description = "messages_days: a chat whose last message is older is erased with its messages (a"
                    + " submission's review chat goes with its submission); submissions_days: a submission older is"
                    + " erased with its files, decisions and review chat. Each 1 to 36500, or null (or absent) to keep"
                    + " until deleted. Applied by a daily run.")
    RetentionBody setRetention(Tenant tenant, @RequestBody @Nullable RetentionBody body) {
        if (body == null) {
            throw InvalidInput.field(
                    "messages_days",
                    "is missing: the body is empty",
                    "Send {\"messages_days\": 30, \"submissions_days\": 365}, with null for what is kept.");
        }
        return RetentionBody.of(retention.set(tenant.id(), new Retention(body.messagesDays(), body.submissionsDays())));
    }
}
