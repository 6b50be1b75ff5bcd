package com.chatreview.grading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GradesTests {

    @ParameterizedTest
    @CsvSource({
        "100, 100, A",
        "90, 100, A",
        "89, 100, B",
        "80, 100, B",
        "79, 100, C",
        "70, 100, C",
        "69, 100, D",
        "60, 100, D",
        "59, 100, E",
        "50, 100, E",
        "49, 100, F",
        "0, 100, F",
        // 8.9 of 10 is 89 %: not rounded up into A
        "89, 100, B",
        "17, 19, B",
        "18, 20, A",
        "1, 2, E",
        "0, 1, F",
        "1, 1, A"
    })
    void theLetterFollowsFromTheShareOfPoints(int points, int total, String letter) {
        assertThat(Grades.letter(points, total)).isEqualTo(letter);
    }

    /**
     * Every edge of every band, for every rubric total a homework may have (1 to 20 criteria of 1 to 100 points):
     * the fewest points that reach a band's percentage earn its letter or a better one (on a small total they may
     * reach a higher band too), and one point less earns a lower letter.
     */
    @Test
    void onEveryTotalTheEdgeOfEachBandIsWhereItsPercentageIsReached() {
        int[] bands = {90, 80, 70, 60, 50};
        String letters = "ABCDEF";
        for (int total = 1; total <= 2000; total++) {
            for (int band = 0; band < bands.length; band++) {
                int fewest = (int) Math.ceil(bands[band] * total / 100.0 - 1e-9);
                assertThat(letters.indexOf(Grades.letter(fewest, total)))
                        .as(fewest + " of " + total + " reaches " + bands[band] + " %")
                        .isLessThanOrEqualTo(band);
                if (fewest > 0) {
                    assertThat(letters.indexOf(Grades.letter(fewest - 1, total)))
                            .as((fewest - 1) + " of " + total + " is below " + bands[band] + " %")
                            .isGreaterThan(band);
                }
            }
            assertThat(Grades.letter(total, total)).isEqualTo("A");
            assertThat(Grades.letter(0, total)).isEqualTo("F");
        }
    }

    @Test
    void aRubricWithoutPointsHasNoLetter() {
        assertThatThrownBy(() -> Grades.letter(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theDefaultRubricIsWorthOneHundredPoints() {
        assertThat(Rubric.DEFAULT.totalPoints()).isEqualTo(100);
        assertThat(Rubric.DEFAULT.criteria())
                .allSatisfy(criterion -> assertThat(criterion.id()).matches(Rubric.ID));
    }
}
