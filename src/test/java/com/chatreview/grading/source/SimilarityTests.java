package com.chatreview.grading.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.chatreview.grading.Place;
import com.chatreview.grading.source.SourceFile.Kind;
import com.chatreview.grading.source.SourceFile.Token;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The offline reviewer's similarity: the Dice coefficient over token 3-grams, and what it points to. */
class SimilarityTests {

    private static final String REFERENCE = """
            def add(a, b):
                return a + b
            """;

    @Test
    void theSameCodeIsOneHundredPercentWhateverItsCommentsAndSpacing() {
        String commented = """
                # adds two numbers
                def add( a,b ):   # the sum
                    return a+b
                """;

        assertThat(percent(commented, REFERENCE)).isEqualTo(100);
    }

    @Test
    void renamingWhatOnlyOneSideNamesCostsNothing() {
        assertThat(percent("def add(x, y):\n    return x + y\n", REFERENCE)).isEqualTo(100);
    }

    @Test
    void aDifferentStepCostsTheThreeGramsItIsPartOf() {
        // "a + b" becomes "a - b": of the 10 3-grams on each side, the 2 that hold the last operator differ: 2·8 / 20
        assertThat(percent("def add(a, b):\n    return a - b\n", REFERENCE)).isEqualTo(80);
    }

    @Test
    void extraCodeLowersItAsMissingCodeDoes() {
        // all 10 of the reference's 3-grams are in each; the other side has 28 (two print lines more) or 6 in all
        int extra = percent(REFERENCE + "\nprint(add(1, 2))\nprint(add(3, 4))\n", REFERENCE);
        int missing = percent("def add(a, b):\n", REFERENCE);

        assertThat(extra).isEqualTo(53); // 2·10 / (28 + 10)
        assertThat(missing).isEqualTo(75); // 2·6 / (6 + 10)
    }

    @Test
    void codeWithNothingInCommonIsZeroAndAnEmptySubmissionToo() {
        assertThat(percent("SELECT name FROM users;", REFERENCE)).isZero();
        assertThat(percent("", REFERENCE)).isZero();
    }

    @Test
    void pointsToTheReferenceLinesWithNoCounterpart() {
        SourceFile reference = file("ref.py", """
                from math import gcd

                def reduce(n, d):
                    g = gcd(n, d)
                    return n // g, d // g
                """);
        SourceFile student = file("mine.py", """
                def reduce(n, d):
                    return n, d
                """);

        Similarity.Result result = Similarity.compare(List.of(student), List.of(reference));

        assertThat(result.unmatched())
                .containsExactly(
                        new Place("ref.py", 1, "from math import gcd"),
                        new Place("ref.py", 4, "    g = gcd(n, d)"),
                        new Place("ref.py", 5, "    return n // g, d // g"));
        assertThat(result.referenceLines()).isEqualTo(4);
    }

    @Test
    void namesTheReferencesParticularNamesAndWhichTheSubmissionUses() {
        SourceFile reference = file(
                "ref.py",
                "from math import gcd\n\ndef add_fractions(a, b, c, d):\n"
                        + "    numerator = a * d + c * b\n    return numerator // gcd(numerator, b * d)\n");

        Similarity.Result related = Similarity.compare(
                List.of(file("mine.py", "def add_fractions(w, x, y, z):\n    return w * z + y * x\n")),
                List.of(reference));
        Similarity.Result unrelated =
                Similarity.compare(List.of(file("other.py", "def main():\n    print(input())\n")), List.of(reference));

        assertThat(related.particular()).containsExactly("gcd", "add_fractions", "numerator");
        assertThat(related.particularUsed()).containsExactly("add_fractions");
        assertThat(related.unrelated()).isFalse();
        assertThat(unrelated.unrelated()).isTrue();
        assertThat(unrelated.files())
                .singleElement()
                .satisfies(score -> assertThat(score.usesParticularNames()).isFalse());
    }

    @Test
    void anEssayDoesNotUseTheReferencesNamesByUsingTheSameEnglishWords() {
        SourceFile reference = file("ref.py", "def best(scores):\n    first = sorted(scores)[-1]\n    return first\n");
        String essay = "At first the safety bicycle was not the best of machines.\n";

        Similarity.Result prose = Similarity.compare(List.of(file("essay.md", essay)), List.of(reference));
        Similarity.Result codeInATextFile = Similarity.compare(
                List.of(file("answer.txt", "def best(marks):\n    return max(marks)\n")), List.of(reference));
        Similarity.Result namedInTheReadme = Similarity.compare(
                List.of(file("README.md", "My `best` returns the highest score.\n")), List.of(reference));

        assertThat(prose.particular()).containsExactly("best", "scores", "first");
        assertThat(prose.unrelated()).isTrue();
        assertThat(codeInATextFile.particularUsed()).containsExactly("best");
        assertThat(namedInTheReadme.particularUsed()).containsExactly("best");
    }

    @Test
    void scoresEachStudentFileAgainstTheReferenceFileClosestToIt() {
        SourceFile first = file("first.py", REFERENCE);
        SourceFile second = file("second.py", "def twice(n):\n    return 2 * n\n");

        Similarity.Result result = Similarity.compare(
                List.of(file("b.py", "def twice(n):\n    return 2 * n\n"), file("a.py", REFERENCE)),
                List.of(first, second));

        assertThat(result.files())
                .extracting(
                        Similarity.FileScore::file,
                        Similarity.FileScore::closestReference,
                        Similarity.FileScore::percent)
                .containsExactly(tuple("b.py", "second.py", 100), tuple("a.py", "first.py", 100));
        assertThat(result.percent()).isEqualTo(100);
    }

    @Test
    void tokensDropCommentsAndWhitespaceAndKeepStringsWhole() {
        SourceFile python = file("a.py", "x = 'a # b'  # comment\nif x != \"y\": pass\n");
        SourceFile java = file("A.java", "/* block\n comment */ int x = 1; // line\nx += 2;\n");

        assertThat(python.tokens())
                .extracting(Token::text)
                .containsExactly("x", "=", "'a # b'", "if", "x", "!=", "\"y\"", ":", "pass");
        assertThat(python.tokens()).extracting(Token::kind).contains(Kind.STRING);
        assertThat(java.tokens())
                .extracting(Token::text)
                .containsExactly("int", "x", "=", "1", ";", "x", "+=", "2", ";");
        assertThat(java.tokens().getFirst().line()).isEqualTo(2);
        assertThat(java.codeLines()).hasSize(3);
    }

    private static int percent(String student, String reference) {
        return Similarity.compare(List.of(file("mine.py", student)), List.of(file("ref.py", reference)))
                .percent();
    }

    private static SourceFile file(String name, String text) {
        return SourceFile.read(name, null, text);
    }
}
