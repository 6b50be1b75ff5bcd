package com.chatreview.assistant;

import java.util.function.Consumer;

/**
 * Where the pieces of a reply go as they are generated, one at a time and in order.
 *
 * <p>A sink that says it {@linkplain #acceptsWithoutWaiting() accepts without waiting} may be handed pieces on
 * the provider's I/O thread instead of the caller's: the piece then reaches the chat without waking the reply's
 * thread first. The two never take turns at the same time, and everything a piece did is visible to the caller
 * once the reply returns or throws.
 */
@FunctionalInterface
public interface TokenSink extends Consumer<String> {

    /**
     * Whether the next piece can be taken now without waiting for anything: no network or database call, no lock
     * held for long. Asked before every piece handed on outside the caller's thread; false by default.
     */
    default boolean acceptsWithoutWaiting() {
        return false;
    }
}
