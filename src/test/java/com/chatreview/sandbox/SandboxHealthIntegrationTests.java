package com.chatreview.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The service answers while hostile runs go on beside it: its health within a second throughout a fork bomb, an
 * endless loop, a memory hog and an output flood, run two at a time by the service's own sandbox.
 */
@Tag("sandbox")
@IntegrationTest
@ExtendWith(RequiresSandbox.class)
class SandboxHealthIntegrationTests {

    @Autowired
    Sandbox sandbox;

    @Test
    void healthAnswersWithinASecondWhileHostileRunsGoOn(TestService service) throws Exception {
        // the client's first request (its connection) and the sandbox's check of itself are not the runs' doing
        assertThat(service.api().get("/actuator/health/liveness").status()).isEqualTo(200);
        assertThat(sandbox.whyUnavailable()).isNull();
        List<Long> answers = new CopyOnWriteArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread poller = Thread.ofVirtual().start(() -> {
            while (running.get()) {
                long started = System.nanoTime();
                int status = service.api().get("/actuator/health/liveness").status();
                answers.add(status == 200 ? (System.nanoTime() - started) / 1_000_000 : Long.MAX_VALUE);
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        List<Thread> runs = new ArrayList<>();
        for (String hostile : List.of(
                "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
                "while True:\n    pass\n",
                "x = bytearray(2 * 1024 ** 3)\n",
                "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n")) {
            runs.add(Thread.ofVirtual().start(() -> {
                try {
                    sandbox.run(
                            Map.of("hostile.py", hostile.getBytes(StandardCharsets.UTF_8)),
                            List.of("/usr/bin/python3", "hostile.py"),
                            Set.of(),
                            SandboxContainmentTests.LIMITS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (Thread run : runs) {
            run.join();
        }
        running.set(false);
        poller.join();

        assertThat(answers).hasSizeGreaterThan(10);
        assertThat(answers)
                .as("milliseconds to each health answer")
                .allSatisfy(ms -> assertThat(ms).isLessThan(1000));
    }
}
