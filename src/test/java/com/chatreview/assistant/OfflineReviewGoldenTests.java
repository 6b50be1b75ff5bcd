package com.chatreview.assistant;

import static com.chatreview.assistant.OfflineReviewerTests.CORRECT;
import static com.chatreview.assistant.OfflineReviewerTests.ENDLESS_LINES;
import static com.chatreview.assistant.OfflineReviewerTests.INJECTION;
import static com.chatreview.assistant.OfflineReviewerTests.NOISY;
import static com.chatreview.assistant.OfflineReviewerTests.NOTES;
import static com.chatreview.assistant.OfflineReviewerTests.PARTIAL;
import static com.chatreview.assistant.OfflineReviewerTests.RECURSIVE;
import static com.chatreview.assistant.OfflineReviewerTests.RULES;
import static com.chatreview.assistant.OfflineReviewerTests.TASK;
import static com.chatreview.assistant.OfflineReviewerTests.image;
import static com.chatreview.assistant.OfflineReviewerTests.python;
import static com.chatreview.assistant.OfflineReviewerTests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.grading.ReviewRequest;
import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.support.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pins the offline review's whole text and grade, byte for byte, for every case the other review tests use: a
 * change to the grading engine that changes any review shows here as a diff against {@code
 * src/test/resources/golden/offline-review/}. A deliberate change rewrites the files with {@code
 * -Dgolden.update=true}: each case whose review changed is rewritten and fails (refused under {@code CI=true}); the
 * diff is reviewed with the change, and the next run without the flag passes.
 */
class OfflineReviewGoldenTests {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/offline-review");

    private final OfflineAssistant assistant = new OfflineAssistant(Duration.ZERO);

    static Stream<Arguments> reviews() {
        Stream<Arguments> table = OfflineReviewerTests.cases().map(arguments -> {
            OfflineReviewerTests.Case homework = (OfflineReviewerTests.Case)
                    Objects.requireNonNull(arguments.get()[0], "a case is its first argument");
            return Arguments.of(homework.name(), request(homework.submission()));
        });
        Stream<Arguments> more = Stream.of(
                Arguments.of("a recursive solution", request(List.of(python("fractions.py", RECURSIVE)))),
                Arguments.of(
                        "notes and tests beside the correct code",
                        request(List.of(
                                ReviewDocument.text("NOTES.md", "text/markdown", NOTES),
                                python("fractions.py", CORRECT),
                                python("test_fractions.py", CORRECT.replace("def ", "def test_"))))),
                Arguments.of(
                        "three copies of the partial solution",
                        request(List.of(
                                python("fractions.py", PARTIAL),
                                python("fractions_copy.py", PARTIAL),
                                python("fractions_again.py", PARTIAL)))),
                Arguments.of(
                        "no reference solution and no rules",
                        new ReviewRequest(
                                "fractions-1",
                                "Mathematics",
                                List.of(TASK),
                                List.of(),
                                List.of(),
                                List.of(python("fractions.py", CORRECT)))),
                Arguments.of(
                        "an essay task without a reference",
                        new ReviewRequest(
                                "essay-1",
                                null,
                                List.of(ReviewDocument.text("task.md", "text/markdown", """
                                        Describe photosynthesis: how plants turn sunlight, water and carbon
                                        dioxide into sugar and oxygen, and why chlorophyll matters.
                                        """)),
                                List.of(),
                                List.of(RULES),
                                List.of(ReviewDocument.text("essay.md", "text/markdown", """
                                        Plants use sunlight. Chlorophyll absorbs light, and water and carbon
                                        dioxide become sugar; oxygen is released.
                                        """)))),
                Arguments.of(
                        "the injection beside an image",
                        request(List.of(python("fractions.py", INJECTION), image("diagram.png")))),
                Arguments.of("four hundred findings", request(List.of(python("fractions.py", NOISY)))),
                Arguments.of("files of one endless line", request(ENDLESS_LINES)),
                Arguments.of(
                        "a short task without a reference the work touches",
                        new ReviewRequest(
                                "fractions-1",
                                null,
                                List.of(ReviewDocument.text("task.md", "text/markdown", "Add 1/2 and 1/3.")),
                                List.of(),
                                List.of(),
                                List.of(python("solution.py", "def add(a, b):\n    return a + b\n")))));
        return Stream.concat(table, more);
    }

    @Test
    void everyGoldenFileIsTheReviewOfACase() throws IOException {
        List<String> cases = reviews()
                .map(arguments ->
                        slug((String) Objects.requireNonNull(arguments.get()[0], "a case's name is its first argument"))
                                + ".md")
                .toList();
        try (Stream<Path> files = Files.list(GOLDEN)) {
            assertThat(files.map(file -> file.getFileName().toString()))
                    .as("golden files left from cases renamed or removed")
                    .allMatch(cases::contains);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reviews")
    void theReviewIsTheOneOnFile(String name, ReviewRequest request) throws IOException {
        Review review = assistant.review(request, token -> {});
        String actual = "grade: " + review.grade() + "\n\n" + review.analysis() + "\n";
        Path file = GOLDEN.resolve(slug(name) + ".md");

        if (Boolean.getBoolean("golden.update")) {
            assertThat(TestDatabase.mandatory())
                    .as("-Dgolden.update=true under CI: golden files are rewritten by a person, never by CI")
                    .isFalse();
            if (!Files.exists(file) || !actual.equals(read(file))) {
                Files.createDirectories(GOLDEN);
                Files.writeString(file, actual, StandardCharsets.UTF_8);
                // a rewrite compared with itself would prove nothing: the run fails until it runs without the flag
                throw new AssertionError(
                        "Rewrote " + file + ": review its diff, then run again without" + " -Dgolden.update=true");
            }
        }
        assertThat(file)
                .as("the golden review (write it with -Dgolden.update=true)")
                .exists();
        assertThat(actual).isEqualTo(read(file));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String slug(String name) {
        String slug =
                name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return slug.length() <= 80 ? slug : slug.substring(0, 80).replaceAll("-$", "");
    }
}
