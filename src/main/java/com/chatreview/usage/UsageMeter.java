package com.chatreview.usage;

import com.chatreview.database.Sql;
import com.chatreview.tenancy.TenantId;
import java.time.Clock;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Records what a stored reply cost, in the caller's transaction (the one that stores the reply). */
@Component
public class UsageMeter {

    private final JdbcClient jdbc;
    private final Clock clock;

    UsageMeter(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * The reply's tokens, once: a reply stored again (an attempt repeated after a crash) is counted once.
     *
     * @param messageId the stored reply's id (one row per reply)
     * @param userId whom the reply answered
     */
    public void record(
            TenantId tenant,
            UUID chatId,
            UUID messageId,
            String userId,
            UsageKind kind,
            int promptTokens,
            int completionTokens,
            int totalTokens,
            boolean estimated) {
        jdbc.sql("""
                        INSERT INTO ai_usage (message_id, tenant_id, chat_id, user_id, kind, prompt_tokens,
                                              completion_tokens, total_tokens, estimated, occurred_at)
                        VALUES (:message, :tenant, :chat, :user, :kind, :prompt, :completion, :total, :estimated, :now)
                        ON CONFLICT (message_id) DO NOTHING""")
                .param("message", messageId)
                .param("tenant", tenant.value())
                .param("chat", chatId)
                .param("user", userId)
                .param("kind", kind.value())
                .param("prompt", Math.max(0, promptTokens))
                .param("completion", Math.max(0, completionTokens))
                .param("total", Math.max(0, totalTokens))
                .param("estimated", estimated)
                .param("now", Sql.at(Sql.now(clock)))
                .update();
    }
}
