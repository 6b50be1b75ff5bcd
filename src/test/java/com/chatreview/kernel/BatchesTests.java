package com.chatreview.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BatchesTests {

    /** Every row once, in order, each batch read after the last row of the one before. */
    @ParameterizedTest
    @CsvSource({"0, 1", "1, 1", "499, 1", "500, 2", "1200, 3", "1500, 4"})
    void everyRowIsHandedOverOnceReadingABatchAtATime(int rows, int reads) {
        List<Integer> table = IntStream.range(0, rows).boxed().toList();
        List<Integer> handed = new ArrayList<>();
        List<Integer> readAfter = new ArrayList<>();

        Batches.<Integer>forEach(
                500,
                last -> {
                    readAfter.add(last == null ? -1 : last);
                    return table.stream()
                            .filter(row -> last == null || row > last)
                            .limit(500)
                            .toList();
                },
                handed::add);

        assertThat(handed).isEqualTo(table);
        assertThat(readAfter).hasSize(reads).first().isEqualTo(-1);
    }

    @Test
    void aRowHandedOverIsNotReadAgain() {
        List<String> handed = new ArrayList<>();
        Batches.<String>forEach(2, last -> last == null ? List.of("a", "b") : List.of("c"), handed::add);
        assertThat(handed).containsExactly("a", "b", "c");
    }
}
