package com.chatreview.kernel;

import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Every row of a query handed over one by one, read a batch at a time after the last row read (keyset paging):
 * however many rows there are, at most one batch is in memory, none is missed or met twice while others are written,
 * and no connection is held while {@code each} runs (a slow reader of an export holds none).
 */
public final class Batches {

    /** The next batch: at most the batch's size of rows after {@code last}, or the first ones when it is null. */
    @FunctionalInterface
    public interface After<T> {
        List<T> after(@Nullable T last);
    }

    private Batches() {}

    /** Reads with {@code next} until a batch comes back shorter than {@code size}. */
    public static <T> void forEach(int size, After<T> next, Consumer<? super T> each) {
        T last = null;
        List<T> batch;
        do {
            batch = next.after(last);
            batch.forEach(each);
            last = batch.isEmpty() ? null : batch.getLast();
        } while (batch.size() == size);
    }
}
