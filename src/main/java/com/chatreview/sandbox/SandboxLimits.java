package com.chatreview.sandbox;

import java.time.Duration;

/**
 * What one run may take.
 *
 * @param wallTime how long the run may last, waiting included; then everything of it is killed
 * @param cpuTime the CPU time each process may use
 * @param memoryBytes the address space each process may map
 * @param processes the processes and threads the run may have at once
 * @param fileBytes the largest file a process may write
 * @param openFiles the files a process may hold open at once
 * @param outputBytes what of the run's output (stdout and stderr together) is kept; the rest is read and dropped
 */
public record SandboxLimits(
        Duration wallTime,
        Duration cpuTime,
        long memoryBytes,
        int processes,
        long fileBytes,
        int openFiles,
        int outputBytes) {

    /** What a homework's tests get: ample for a class's programs, nothing for a fork bomb or a memory hog. */
    public static final SandboxLimits TESTS =
            new SandboxLimits(Duration.ofSeconds(30), Duration.ofSeconds(20), 1L << 30, 64, 16L << 20, 256, 256 * 1024);
}
