package com.chatreview.usage;

import com.chatreview.privacy.TableSection;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * The usage module's section of a user's data export, {@code ai_usage}: what each reply to the user and each review
 * of their submissions cost, in the names of {@code GET /api/v1/usage}.
 */
@Component
@Order(4)
class UsageDataExporter extends TableSection<UsageRecord> {

    UsageDataExporter(UsageReports reports) {
        super("ai_usage", reports::hasRecordsOf, reports::forEachRecordOf, UsageRecordBody::of);
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
}
