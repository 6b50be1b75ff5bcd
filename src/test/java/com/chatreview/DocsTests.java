package com.chatreview;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The repository stands alone: its docs and scripts name nothing outside it, and their links lead somewhere in it. */
class DocsTests {

    private static final Pattern OUTSIDE = Pattern.compile("\\.\\./shared|(?<![\\w.])/work/|(?<![\\w.$}])/tmp/");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s#]+)(?:#[^)]*)?\\)");

    @Test
    void docsAndScriptsNameNothingOutsideTheRepository() throws IOException {
        for (Path file : files()) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                assertThat(OUTSIDE.matcher(lines.get(i)).find())
                        .as("%s:%d names a place outside the repository: %s", file, i + 1, lines.get(i))
                        .isFalse();
            }
        }
    }

    @Test
    void everyRelativeLinkOfTheDocsLeadsToAFileOfTheRepository() throws IOException {
        for (Path file : files()) {
            if (!file.toString().endsWith(".md")) {
                continue;
            }
            LINK.matcher(Files.readString(file))
                    .results()
                    .map(link -> link.group(1))
                    .forEach(target -> {
                        if (!target.contains("://") && !target.startsWith("mailto:")) {
                            Path linked =
                                    file.resolveSibling(target).toAbsolutePath().normalize();
                            assertThat(linked)
                                    .as("%s links to %s", file, target)
                                    .exists();
                            assertThat(linked.startsWith(Path.of("").toAbsolutePath()))
                                    .as("%s links to %s, outside the repository", file, target)
                                    .isTrue();
                        }
                    });
        }
    }

    private static List<Path> files() throws IOException {
        try (Stream<Path> docs = Files.list(Path.of("docs"));
                Stream<Path> bench = Files.walk(Path.of("bench"));
                Stream<Path> bin = Files.list(Path.of("bin"))) {
            List<Path> all = Stream.of(Stream.of(Path.of("README.md")), docs, bench, bin)
                    .flatMap(files -> files)
                    .filter(Files::isRegularFile)
                    .filter(file -> !file.startsWith(Path.of("bench", "results")))
                    .filter(file -> !file.toString().contains("node_modules"))
                    .filter(DocsTests::isText)
                    .toList();
            assertThat(all).hasSizeGreaterThan(20);
            return all;
        }
    }

    private static boolean isText(Path file) {
        String name = file.getFileName().toString();
        if (!name.matches(".*\\.(md|sh|java|py|sql|txt|conf|js|json|yml|yaml|lua|tsv)$") && name.contains(".")) {
            return false;
        }
        try {
            return Files.size(file) < 2_000_000 && !new String(Files.readAllBytes(file)).contains("\0");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
