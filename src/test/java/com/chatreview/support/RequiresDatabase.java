package com.chatreview.support;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Skips a test class, loudly, when its PostgreSQL server is not reachable; fails it instead when {@code CI=true},
 * where a skipped integration test would hide a broken build.
 */
public class RequiresDatabase implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (TestDatabase.embedded() || TestDatabase.serverDatabaseUrl().isPresent()) {
            return ConditionEvaluationResult.enabled("database available");
        }
        String reason = TestDatabase.unavailableReason();
        if (TestDatabase.mandatory()) {
            throw new IllegalStateException("CI=true and the tests need a PostgreSQL server: " + reason);
        }
        String notice = "\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
                + "!! SKIPPED " + context.getDisplayName() + ": " + reason + "\n"
                + "!! Start PostgreSQL (see README) or set DATABASE_URL to run these tests.\n"
                + "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n";
        System.err.println(notice);
        return ConditionEvaluationResult.disabled(notice);
    }
}
