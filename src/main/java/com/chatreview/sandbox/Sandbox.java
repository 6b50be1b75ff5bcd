package com.chatreview.sandbox;

import com.chatreview.kernel.FileNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Runs a command over files in a sandbox (docs/decisions.md, Homework tests): each run in a fresh directory of its
 * own, the only thing of the host it can write, mounted at {@code /work} in bubblewrap's namespaces (user, PID,
 * network with nothing but its own loopback, IPC, UTS, mounts), with the host's {@code /usr} read-only and nothing
 * else of it: no {@code /etc}, no data directory, no other run. A service running as root hands each run an
 * unprivileged user id of its own ({@code setpriv}), so that the process limit counts that run's processes alone;
 * {@code prlimit} bounds each process's CPU time, memory, file size and open files. The output is read as it comes,
 * kept up to its limit. At the wall time, or when the command ends, bubblewrap and everything under it is killed
 * (its PID namespace goes with it); the directory is then removed without following any link the run left.
 */
public final class Sandbox {

    private static final String BWRAP = "/usr/bin/bwrap";
    private static final String SETPRIV = "/usr/bin/setpriv";
    private static final String PRLIMIT = "/usr/bin/prlimit";
    /** The user ids runs get when the service is root, one per concurrent run. */
    private static final int FIRST_UID = 61_000;
    /**
     * The run's working directory, in memory and bounded (a run cannot fill the host's disk or memory through it): the
     * files are copied in from the read-only {@code /in}, the command runs with its standard output sent to its
     * standard error (the run's output), and then the files asked for that are regular files go out as a tar on
     * standard output, which only this script writes.
     */
    private static final String AROUND_THE_RUN = """
            cp -R /in/. /work/ && cd /work || exit 125
            "$@" 1>&2
            status=$?
            set --
            for name in $CRS_COLLECT; do
                if [ -f "$name" ] && [ ! -L "$name" ]; then set -- "$@" "$name"; fi
            done
            if [ $# -gt 0 ]; then tar -c -f - -- "$@"; fi
            exit $status
            """;
    /** What the working directory may hold. */
    private static final long WORK_BYTES = 128L << 20;
    /** The run's {@code /tmp}, in memory: bounded, so that no run fills the host's memory through it. */
    private static final long TMP_BYTES = 64L << 20;

    private final Path root;
    private final boolean asRoot;
    private final BlockingQueue<Integer> uids;
    private volatile @Nullable String unavailable;
    private volatile boolean checked;

    /**
     * @param root where the runs' directories are made (each removed after its run)
     * @param concurrency how many runs at once: more wait for a slot
     */
    public Sandbox(Path root, int concurrency) {
        this.root = root;
        this.asRoot = "root".equals(System.getProperty("user.name"));
        this.uids = new ArrayBlockingQueue<>(concurrency);
        for (int i = 0; i < concurrency; i++) {
            uids.add(FIRST_UID + i);
        }
    }

    /** Why no run can be sandboxed here; empty when runs can be. */
    public @Nullable String whyUnavailable() {
        if (!checked) {
            synchronized (this) {
                if (!checked) {
                    unavailable = check();
                    checked = true;
                }
            }
        }
        return unavailable;
    }

    /**
     * Runs the command in a fresh sandbox holding the files, and collects the named files it leaves.
     *
     * @param files the run's files by name (plain names, no directories)
     * @param command the command, as the sandbox sees it (the run's directory is {@code /work}, its working one)
     * @param collect the names of the files to read back when the run is done (regular files only)
     * @throws SandboxUnavailable when the sandbox cannot run here: nothing is run
     */
    public SandboxResult run(Map<String, byte[]> files, List<String> command, Set<String> collect, SandboxLimits limits)
            throws SandboxUnavailable, InterruptedException {
        return run(files, command, collect, limits, Map.of());
    }

    /**
     * Runs the command as {@link #run(Map, List, Set, SandboxLimits)} does, with files of the host the run may read:
     * each mounted read-only at {@code /tools/<name>} (a test runner's jar).
     *
     * @param tools the host's files by the name the run finds them under in {@code /tools}
     */
    public SandboxResult run(
            Map<String, byte[]> files,
            List<String> command,
            Set<String> collect,
            SandboxLimits limits,
            Map<String, Path> tools)
            throws SandboxUnavailable, InterruptedException {
        String why = whyUnavailable();
        if (why != null) {
            throw new SandboxUnavailable(why);
        }
        for (String name : files.keySet()) {
            requireName(name);
        }
        collect.forEach(Sandbox::requireName);
        tools.keySet().forEach(Sandbox::requireName);
        int uid = uids.take();
        long started = System.nanoTime();
        Path dir = null;
        try {
            dir = prepared(files, uid);
            Process process = started(commandLine(dir, uid, command, collect, limits, tools));
            process.getOutputStream().close();
            CappedOutput output = new CappedOutput(process.getErrorStream(), limits.outputBytes());
            CappedOutput archive = new CappedOutput(
                    process.getInputStream(), (int) Math.min(Integer.MAX_VALUE - 8, 2L * limits.fileBytes() + 10240));
            Thread reader = Thread.ofVirtual().name("sandbox-output").start(output);
            Thread archiveReader = Thread.ofVirtual().name("sandbox-results").start(archive);
            boolean ended = process.waitFor(limits.wallTime().toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor();
            }
            reader.join(Duration.ofSeconds(5));
            archiveReader.join(Duration.ofSeconds(5));
            Map<String, byte[]> collected =
                    ended && !archive.cut() ? Tar.regularFiles(archive.bytes(), collect) : Map.of();
            return new SandboxResult(
                    ended ? process.exitValue() : -1,
                    !ended,
                    output.text(),
                    output.cut(),
                    collected,
                    Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException e) {
            throw new UncheckedIOException("A sandbox run could not be started", e);
        } finally {
            if (dir != null) {
                removeTree(dir);
            }
            uids.add(uid);
        }
    }

    private List<String> commandLine(
            Path dir,
            int uid,
            List<String> command,
            Set<String> collect,
            SandboxLimits limits,
            Map<String, Path> tools) {
        List<String> line = new ArrayList<>();
        if (asRoot) {
            line.addAll(List.of(SETPRIV, "--reuid=" + uid, "--regid=" + uid, "--clear-groups", "--"));
        }
        line.addAll(List.of(
                BWRAP,
                "--unshare-all",
                "--die-with-parent",
                "--new-session",
                "--hostname",
                "sandbox",
                "--ro-bind",
                "/usr",
                "/usr",
                "--symlink",
                "usr/lib",
                "/lib",
                "--symlink",
                "usr/lib64",
                "/lib64",
                "--symlink",
                "usr/bin",
                "/bin",
                "--symlink",
                "usr/sbin",
                "/sbin",
                "--proc",
                "/proc",
                "--dev",
                "/dev",
                "--size",
                Long.toString(TMP_BYTES),
                "--tmpfs",
                "/tmp",
                "--ro-bind",
                dir.toString(),
                "/in",
                "--size",
                Long.toString(WORK_BYTES),
                "--tmpfs",
                "/work"));
        tools.forEach((name, host) -> line.addAll(List.of("--ro-bind", host.toString(), "/tools/" + name)));
        line.addAll(List.of(
                "--remount-ro",
                "/",
                "--chdir",
                "/work",
                "--clearenv",
                "--setenv",
                "PATH",
                "/usr/bin:/bin",
                "--setenv",
                "HOME",
                "/work",
                "--setenv",
                "LANG",
                "C.UTF-8",
                "--setenv",
                "PYTHONDONTWRITEBYTECODE",
                "1",
                // a process's address space is bounded: glibc's malloc otherwise reserves 64 MiB per thread, and a
                // JVM or Node.js starting a dozen threads would not fit
                "--setenv",
                "MALLOC_ARENA_MAX",
                "2",
                "--setenv",
                "CRS_COLLECT",
                String.join(" ", collect),
                "--",
                "/bin/sh",
                "-c",
                AROUND_THE_RUN,
                "sh",
                PRLIMIT,
                "--nproc=" + limits.processes(),
                "--as=" + limits.memoryBytes(),
                "--cpu=" + Math.max(1, limits.cpuTime().toSeconds()),
                "--fsize=" + limits.fileBytes(),
                "--nofile=" + limits.openFiles(),
                "--core=0",
                "--"));
        line.addAll(command);
        return line;
    }

    /**
     * Starts bubblewrap with an empty environment: its own process is the sandbox's PID 1, whose {@code environ} the
     * run can read, so it must hold nothing of the service's (database URL, keys).
     */
    private static Process started(List<String> line) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(line);
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        return builder.start();
    }

    /** A fresh directory with the files, the run's user its owner. */
    private Path prepared(Map<String, byte[]> files, int uid) throws IOException {
        Files.createDirectories(root);
        // the runs' users pass through to their own directory, and list none of the others
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx--x--x"));
        Path dir = Files.createTempDirectory(
                root, "run-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path written = dir.resolve(file.getKey());
            Files.write(written, file.getValue(), StandardOpenOption.CREATE_NEW);
            if (asRoot) {
                Files.setAttribute(written, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(written, "unix:gid", uid, LinkOption.NOFOLLOW_LINKS);
            }
        }
        if (asRoot) {
            Files.setAttribute(dir, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(dir, "unix:gid", uid, LinkOption.NOFOLLOW_LINKS);
        }
        return dir;
    }

    /** Removes the run's directory: links are removed, never followed. */
    static void removeTree(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes)
                        throws IOException {
                    // a run may have taken its own permissions away: the service (its owner, or root) gives them back
                    directory.toFile().setWritable(true, true);
                    directory.toFile().setExecutable(true, true);
                    directory.toFile().setReadable(true, true);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException failure) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path directory, @Nullable IOException failure)
                        throws IOException {
                    Files.deleteIfExists(directory);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("A sandbox run's directory could not be removed: " + dir, e);
        }
    }

    private static void requireName(String name) {
        if (!FileNames.isPlain(name)) {
            throw new IllegalArgumentException("not a plain file name: " + name);
        }
    }

    /** Whether bubblewrap runs here: a run of {@code true} in the sandbox. */
    private @Nullable String check() {
        for (String tool : List.of(BWRAP, PRLIMIT)) {
            if (!Files.isExecutable(Path.of(tool))) {
                return tool + " is not installed (Debian: apt-get install bubblewrap util-linux)";
            }
        }
        if (asRoot && !Files.isExecutable(Path.of(SETPRIV))) {
            return SETPRIV + " is not installed (Debian: apt-get install util-linux)";
        }
        Path probe = null;
        try {
            probe = prepared(Map.of(), FIRST_UID);
            Process process = started(
                    commandLine(probe, FIRST_UID, List.of("/usr/bin/true"), Set.of(), SandboxLimits.TESTS, Map.of()));
            process.getOutputStream().close();
            String said = new String(process.getErrorStream().readNBytes(4096), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "bubblewrap did not finish a run of 'true' within 10 s";
            }
            return process.exitValue() == 0
                    ? null
                    : "bubblewrap could not run 'true' in a sandbox under " + root + " (user namespaces off, or a"
                            + " directory above it closed to other users: SANDBOX_DIR): " + said;
        } catch (IOException e) {
            return "bubblewrap could not be started: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while checking bubblewrap";
        } finally {
            if (probe != null) {
                removeTree(probe);
            }
        }
    }

    /** Reads a run's stream as it comes: the first bytes up to the limit are kept, the rest read and dropped. */
    private static final class CappedOutput implements Runnable {
        private final InputStream in;
        private final int limit;
        private final java.io.ByteArrayOutputStream kept = new java.io.ByteArrayOutputStream();
        private volatile boolean cut;

        CappedOutput(InputStream in, int limit) {
            this.in = in;
            this.limit = limit;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    synchronized (kept) {
                        int room = limit - kept.size();
                        if (room > 0) {
                            kept.write(buffer, 0, Math.min(room, read));
                        }
                        if (read > room) {
                            cut = true;
                        }
                    }
                }
            } catch (IOException closed) {
                // the run was killed: what was read is kept
            }
        }

        String text() {
            return new String(bytes(), StandardCharsets.UTF_8);
        }

        byte[] bytes() {
            synchronized (kept) {
                return kept.toByteArray();
            }
        }

        boolean cut() {
            return cut;
        }
    }
}
