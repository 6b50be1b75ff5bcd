package com.chatreview.sandbox;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How homework tests run (docs/decisions.md, Homework tests).
 *
 * @param mode {@code sandbox}: every run in the sandbox, and none at all when it cannot run here; {@code off}: none
 *     ({@code REVIEW_TESTS}). There is no mode that runs a submission outside the sandbox
 * @param dir where the runs' directories are made, each removed after its run ({@code SANDBOX_DIR}, the system's
 *     temporary directory's {@code crs-sandbox} by default: the runs' users must be able to pass through every
 *     directory above it)
 * @param concurrency runs at once on a node; more wait for a turn
 */
@ConfigurationProperties("sandbox")
public record SandboxSettings(
        @DefaultValue("sandbox") Mode mode,
        @DefaultValue("/tmp/crs-sandbox") Path dir,
        @DefaultValue("2") int concurrency) {

    public enum Mode {
        SANDBOX,
        OFF
    }
}
