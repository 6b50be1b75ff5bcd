package com.chatreview.support;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Skips a browser test class, loudly, when Chromium or its driver is not installed (Debian: {@code apt-get install
 * chromium chromium-driver}, which {@code .ci/run} does); fails it instead when {@code CI=true}.
 */
public class RequiresChromium implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String missing = Browser.missing();
        if (missing == null) {
            return ConditionEvaluationResult.enabled("Chromium available");
        }
        if (TestDatabase.mandatory()) {
            throw new IllegalStateException("CI=true and the browser tests need " + missing);
        }
        String notice = "\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
                + "!! SKIPPED " + context.getDisplayName() + ": " + missing + " is not installed\n"
                + "!! Install it (apt-get install chromium chromium-driver), or set CHROMIUM_BIN and CHROMEDRIVER.\n"
                + "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n";
        System.err.println(notice);
        return ConditionEvaluationResult.disabled(notice);
    }

    static boolean executable(String path) {
        return path != null && Files.isExecutable(Path.of(path));
    }
}
