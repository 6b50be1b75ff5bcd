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
