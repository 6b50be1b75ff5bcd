package com.chatreview.usage;

import com.chatreview.privacy.UserDataExporter;
import com.chatreview.tenancy.TenantId;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.Set;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import tools.jackson.core.JsonGenerator;

/**
 * The usage module's section of a user's data export, {@code ai_usage}: what each reply to the user and each review
 * of their submissions cost, in the names of {@code GET /api/v1/usage}.
 */
@Component
@Order(4)
class UsageDataExporter implements UserDataExporter {

    private final UsageReports reports;

    UsageDataExporter(UsageReports reports) {
        this.reports = reports;
    }

    record UsageRecordBody(
            @JsonProperty("message_id") String messageId,
            @JsonProperty("chat_id") String chatId,
            String kind,
            @JsonProperty("prompt_tokens") int promptTokens,
            @JsonProperty("completion_tokens") int completionTokens,
            @JsonProperty("total_tokens") int totalTokens,
            boolean estimated,
            @JsonProperty("occurred_at") Instant occurredAt) {

        static UsageRecordBody of(UsageRecord record) {
            return new UsageRecordBody(
                    record.messageId().toString(),
                    record.chatId().toString(),
                    record.kind().value(),
                    record.promptTokens(),
                    record.completionTokens(),
                    record.totalTokens(),
                    record.estimated(),
                    record.occurredAt());
        }
    }

    @Override
    public String section() {
        return "ai_usage";
    }

    @Override
    public Set<String> tables() {
        return Set.of("ai_usage");
    }

    @Override
    public boolean holdsDataOf(TenantId tenantId, String userId) {
        return reports.hasRecordsOf(tenantId, userId);
    }

    @Override
    public void export(TenantId tenantId, String userId, JsonGenerator json) {
        json.writeStartArray();
        reports.forEachRecordOf(tenantId, userId, record -> json.writePOJO(UsageRecordBody.of(record)));
        json.writeEndArray();
    }
}
