package com.chatreview.support;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.util.FileSystemUtils;

/**
 * What makes a {@link ServiceProcess} start in a third of the time: the test class path with its directories packed
 * into jars, JDK 25's ahead-of-time cache of the classes the service loads and links as it starts (8.3 s to 3.3 s a
 * start here, on an idle machine), and the data a fresh service's first start leaves (PostgreSQL made, the schema
 * migrated: 4-6 s a start under the suite's load), copied instead of made again.
 *
 * <p>They are made once for the classes as they are, under {@code target/startup-cache/<key>/} (the key digests the
 * class path, its files' sizes and times, and the JDK), by the first test JVM that needs them while the others wait
 * (a file lock): by a run of the service that starts and stops as an orchestrator stops it (the cache is written as it
 * exits). A later run of the suite on the same classes reuses them. When recording fails, the services start without.
 */
final class StartupCache {

    /** The class path, and the cache and the data template when there are. */
    record Prepared(String classPath, Optional<Path> cache, Optional<Path> dataTemplate) {}

    private static final Path HOME = Path.of(System.getProperty("basedir", "."), "target", "startup-cache");

    private static @Nullable Prepared prepared;

    private StartupCache() {}

    static synchronized Prepared prepared() throws IOException, InterruptedException {
        if (prepared == null) {
            prepared = prepare();
        }
        return prepared;
    }

    private static Prepared prepare() throws IOException, InterruptedException {
        String[] testClassPath = System.getProperty("java.class.path").split(File.pathSeparator);
        Path home = HOME.resolve(key(testClassPath));
        Files.createDirectories(HOME);
        try (FileChannel lockFile =
                        FileChannel.open(HOME.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock held = lockFile.lock()) {
            Path ready = home.resolve("ready");
            String classPath = classPath(testClassPath, home);
            if (!Files.exists(ready)) {
                // those of classes that have changed since, and what an interrupted attempt left
                removeAll();
                Files.createDirectories(home);
                pack(testClassPath, home);
                if (Runtime.version().feature() >= 25) {
                    record(classPath, home);
                }
                Files.createFile(ready);
            }
            return new Prepared(
                    classPath,
                    Optional.of(home.resolve("service.aot")).filter(Files::exists),
                    Optional.of(home.resolve("data")).filter(Files::isDirectory));
        }
    }

    /** The class path the services run with: each directory of the test class path as the jar it is packed into. */
    private static String classPath(String[] testClassPath, Path home) {
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < testClassPath.length; i++) {
            entries.add(
                    Files.isDirectory(Path.of(testClassPath[i]))
                            ? home.resolve("classes-" + i + ".jar").toString()
                            : testClassPath[i]);
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void pack(String[] testClassPath, Path home) throws IOException {
        for (int i = 0; i < testClassPath.length; i++) {
            Path entry = Path.of(testClassPath[i]);
            if (Files.isDirectory(entry)) {
                pack(entry, home.resolve("classes-" + i + ".jar"));
            }
        }
    }

    /** A jar of the directory's files, with an entry for each directory too (package scans ask for those). */
    private static void pack(Path directory, Path jar) throws IOException {
        try (Stream<Path> paths = Files.walk(directory);
                JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Path path : paths.sorted().toList()) {
                if (path.equals(directory)) {
                    continue;
                }
                String name = directory.relativize(path).toString().replace(File.separatorChar, '/');
                if (Files.isDirectory(path)) {
                    out.putNextEntry(new JarEntry(name + "/"));
                } else {
                    out.putNextEntry(new JarEntry(name));
                    Files.copy(path, out);
                }
                out.closeEntry();
            }
        }
    }

    /**
     * The cache, written as the recording service exits (about 13 s more), into a file of its own moved in place after:
     * a running service maps the cache, so it is never written over. Then that service's data, as it stopped.
     */
    private static void record(String classPath, Path home) throws IOException, InterruptedException {
        Path recorded = home.resolve("recording.aot");
        try (ServiceProcess recorder = ServiceProcess.recording("startup-cache-recording", classPath, recorded)) {
            recorder.start();
            recorder.terminate();
            copy(recorder.dataDir(), home.resolve("data"));
        } catch (AssertionError | IOException e) {
            System.err.println("No startup cache (the services start without one): " + e.getMessage());
        }
        if (Files.exists(recorded)) {
            Files.move(recorded, home.resolve("service.aot"), StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** A fresh service's data directory, from the template. */
    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                if (path.getFileName().toString().equals("service.lock")) {
                    continue;
                }
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                    Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(path));
                } else {
                    Files.copy(path, target, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** The classes as they are: the class path, each directory's files with their sizes and times, and the JDK. */
    private static String key(String[] testClassPath) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        digest.update(Runtime.version().toString().getBytes(StandardCharsets.UTF_8));
        for (String entry : testClassPath) {
            digest.update(entry.getBytes(StandardCharsets.UTF_8));
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                try (Stream<Path> files = Files.walk(path)) {
                    for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                        digest.update((path.relativize(file) + " " + Files.size(file) + " "
                                        + Files.getLastModifiedTime(file).toMillis() + "\n")
                                .getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return HexFormat.of().formatHex(digest.digest(), 0, 8);
    }

    private static void removeAll() throws IOException {
        try (Stream<Path> homes = Files.list(HOME)) {
            for (Path home : homes.filter(Files::isDirectory).toList()) {
                FileSystemUtils.deleteRecursively(home);
            }
        }
    }
}
