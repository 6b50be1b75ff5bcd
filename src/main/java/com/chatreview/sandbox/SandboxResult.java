package com.chatreview.sandbox;

import java.time.Duration;
import java.util.Map;

/**
 * What a run came to.
 *
 * @param exitCode the command's exit status; -1 when it was killed at the wall time
 * @param timedOut whether the run was killed at its wall time
 * @param output its output (stdout and stderr), as much as the limit keeps
 * @param outputCut whether output past the limit was dropped
 * @param collected the files asked for that the run left in its directory, regular files only, each within the limit
 * @param took how long the run lasted
 */
public record SandboxResult(
        int exitCode,
        boolean timedOut,
        String output,
        boolean outputCut,
        Map<String, byte[]> collected,
        Duration took) {

    public SandboxResult {
        collected = Map.copyOf(collected);
    }
}
