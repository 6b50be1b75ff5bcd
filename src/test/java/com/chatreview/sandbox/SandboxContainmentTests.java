package com.chatreview.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hostile submissions, each contained: a fork bomb, an endless loop, a memory hog, an output flood, connections to
 * services on the host, reads of what the service keeps, writes outside the run's directory, a process left running,
 * {@code kill -9 -1}, and links out of the directory. After each, nothing of the run is left: no process of its user,
 * no directory.
 */
@Tag("sandbox")
@ExtendWith(RequiresSandbox.class)
class SandboxContainmentTests {

    /** Tight enough that the hostile runs end quickly. */
    static final SandboxLimits LIMITS =
            new SandboxLimits(Duration.ofSeconds(5), Duration.ofSeconds(3), 512L << 20, 32, 1L << 20, 64, 64 * 1024);

    static Path root;
    static Path hostData;
    static Sandbox sandbox;

    @BeforeAll
    static void aSandbox() throws IOException {
        root = Files.createTempDirectory("crs-sandbox-runs");
        hostData = Files.createTempDirectory("crs-sandbox-host-data");
        Files.writeString(hostData.resolve("secret.txt"), "the service's secret");
        sandbox = new Sandbox(root, 2);
    }

    @AfterAll
    static void removed() {
        Sandbox.removeTree(root);
        Sandbox.removeTree(hostData);
    }

    @AfterEach
    void nothingOfTheRunIsLeft() throws IOException {
        try (var left = Files.list(root)) {
            assertThat(left.toList()).as("the runs' directories").isEmpty();
        }
        assertThat(ProcessHandle.allProcesses()
                        .filter(process -> process.info()
                                .user()
                                .map(user -> user.startsWith("61"))
                                .orElse(false))
                        .map(process -> process.info().commandLine().orElse("?"))
                        .toList())
                .as("processes of the runs' users")
                .isEmpty();
    }

    @Test
    void aWellBehavedRunGivesItsOutputAndFiles() throws Exception {
        SandboxResult result = python("""
                import os
                print("hello from", os.getcwd(), os.getuid() != 0)
                open("results.xml", "w").write("<testsuite/>")
                """);

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("hello from /work True");
        assertThat(new String(result.collected().get("results.xml"), StandardCharsets.UTF_8))
                .isEqualTo("<testsuite/>");
    }

    @Test
    void aForkBombIsBoundedAndKilled() throws Exception {
        SandboxResult result = python("""
                import os
                while True:
                    try:
                        os.fork()
                    except OSError:
                        pass
                """);

        assertThat(result.took()).isLessThan(LIMITS.wallTime().plusSeconds(5));
    }

    @Test
    void anEndlessLoopEndsAtItsLimits() throws Exception {
        SandboxResult result = python("while True:\n    pass\n");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.took()).isLessThan(LIMITS.wallTime().plusSeconds(2));
    }

    @Test
    void aMemoryHogGetsNoMoreThanItsLimit() throws Exception {
        SandboxResult result = python("x = bytearray(2 * 1024 ** 3)\nprint('allocated')\n");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("MemoryError").doesNotContain("allocated");
    }

    @Test
    void anOutputFloodIsKeptToItsLimitAndTheRunEnds() throws Exception {
        SandboxResult result = python("import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n");

        assertThat(result.output().length()).isLessThanOrEqualTo(LIMITS.outputBytes());
        assertThat(result.outputCut()).isTrue();
        assertThat(result.took()).isLessThan(LIMITS.wallTime().plusSeconds(2));
    }

    @Test
    void noServiceOfTheHostIsReachable() throws Exception {
        AtomicInteger reached = new AtomicInteger();
        try (ServerSocket service = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                while (!service.isClosed()) {
                    try {
                        service.accept().close();
                        reached.incrementAndGet();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            SandboxResult result = python("""
                    import socket
                    for port in (%d, 5432, 6379, 8080):
                        s = socket.socket()
                        s.settimeout(1)
                        try:
                            s.connect(("127.0.0.1", port))
                            print("CONNECTED", port)
                        except OSError as e:
                            print("refused", port, e.errno)
                    """.formatted(service.getLocalPort()));

            assertThat(result.output()).doesNotContain("CONNECTED").contains("refused " + service.getLocalPort());
        }
        assertThat(reached).as("connections that reached the host's listener").hasValue(0);
    }

    @Test
    void nothingOfTheServiceNorOfAnotherRunCanBeRead() throws Exception {
        SandboxResult result = python("""
                import os
                for path in ("%s", "/proc/1/environ", "/etc/passwd", "%s", "%s"):
                    try:
                        print("READ", path, open(path, "rb").read()[:200])
                    except OSError as e:
                        print("refused", path, e.errno)
                print("ENV", sorted(os.environ))
                """.formatted(
                        hostData.resolve("secret.txt"), root, Path.of("pom.xml").toAbsolutePath()));

        assertThat(result.output())
                .doesNotContain("the service's secret")
                .doesNotContain("READ " + hostData)
                .doesNotContain("DATABASE")
                .doesNotContain("JAVA_HOME")
                .doesNotContain("READ /etc/passwd")
                .doesNotContain("<project");
        assertThat(result.output().lines().filter(line -> line.startsWith("READ /proc/1/environ")))
                .allSatisfy(line -> assertThat(line).doesNotContain("DATABASE").doesNotContain("SEALING"));
    }

    @Test
    void nothingOutsideTheRunsDirectoryCanBeWritten() throws Exception {
        SandboxResult result = python("""
                for path in ("/usr/crs-sandbox-wrote", "/crs-sandbox-wrote", "%s/wrote"):
                    try:
                        open(path, "w").write("x")
                        print("WROTE", path)
                    except OSError as e:
                        print("refused", path, e.errno)
                """.formatted(hostData));

        assertThat(result.output()).doesNotContain("WROTE");
        assertThat(Path.of("/usr/crs-sandbox-wrote")).doesNotExist();
        assertThat(hostData.resolve("wrote")).doesNotExist();
    }

    @Test
    void aRunFillingItsDirectoryStopsAtItsSizeAndTheHostDiskIsUntouched() throws Exception {
        SandboxResult result = python("""
                import os
                written = 0
                try:
                    for i in range(100000):
                        with open("fill-%d" % i, "wb") as f:
                            f.write(b"x" * 1048576)
                        written += 1
                except OSError as e:
                    print("stopped", written, e.errno)
                try:
                    open("/in/hostile.py", "w").write("changed")
                    print("WROTE /in")
                except OSError as e:
                    print("refused /in", e.errno)
                """);

        assertThat(result.output()).contains("stopped").contains("refused /in").doesNotContain("WROTE");
        int files = Integer.parseInt(result.output()
                .lines()
                .filter(line -> line.startsWith("stopped"))
                .findFirst()
                .orElseThrow()
                .split(" ")[1]);
        assertThat(files).as("megabytes written before the directory was full").isLessThanOrEqualTo(128);
    }

    @Test
    void aProcessLeftRunningAndKillOfEveryoneEndWithTheRun() throws Exception {
        Process sentinel = new ProcessBuilder("/usr/bin/sleep", "60").start();
        try {
            SandboxResult result = python("""
                    import os, subprocess, signal
                    subprocess.Popen(["/usr/bin/sleep", "300"], start_new_session=True)
                    if os.fork() == 0:
                        os.setsid()
                        import time
                        time.sleep(300)
                    os.kill(-1, signal.SIGKILL)
                    """);

            assertThat(result.took()).isLessThan(LIMITS.wallTime().plusSeconds(2));
            assertThat(sentinel.isAlive())
                    .as("a process of the host outlives kill -9 -1 in a run")
                    .isTrue();
        } finally {
            sentinel.destroyForcibly();
        }
    }

    @Test
    void linksOutOfTheDirectoryAreNeitherReadBackNorFollowedWhenItIsRemoved() throws Exception {
        SandboxResult result =
                python("""
                import os
                os.symlink("%s", "results.xml")
                os.symlink("%s", "host")
                os.mkfifo("fifo.xml")
                os.mkdir("locked")
                os.chmod("locked", 0)
                """.formatted(hostData.resolve("secret.txt"), hostData), Set.of("results.xml", "fifo.xml"));

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.collected())
                .as("a link or a FIFO is not a file to read back")
                .isEmpty();
        assertThat(hostData.resolve("secret.txt"))
                .as("not removed through the link")
                .exists();
    }

    private static SandboxResult python(String code) throws Exception {
        return python(code, Set.of("results.xml"));
    }

    private static SandboxResult python(String code, Set<String> collect) throws Exception {
        return sandbox.run(
                Map.of("hostile.py", code.getBytes(StandardCharsets.UTF_8)),
                List.of("/usr/bin/python3", "hostile.py"),
                collect,
                LIMITS);
    }
}
