package com.chatreview.sandbox;

import java.nio.file.Files;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Skips a test class, loudly, when the sandbox cannot run here (bubblewrap missing, user namespaces off); fails it
 * instead when {@code CI=true}, where {@code .ci/run} installs bubblewrap and a skip would hide a broken sandbox.
 */
public class RequiresSandbox implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String why;
        try {
            why = new Sandbox(Files.createTempDirectory("crs-sandbox-check"), 1).whyUnavailable();
        } catch (java.io.IOException e) {
            why = e.toString();
        }
        if (why == null) {
            return ConditionEvaluationResult.enabled("the sandbox runs here");
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException("CI=true and the sandbox cannot run: " + why);
        }
        String notice = "\n!! SKIPPED " + context.getDisplayName() + ": " + why
                + "\n!! Install bubblewrap (Debian: apt-get install bubblewrap) to run these tests.\n";
        System.err.println(notice);
        return ConditionEvaluationResult.disabled(notice);
    }
}
