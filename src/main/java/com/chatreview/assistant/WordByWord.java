package com.chatreview.assistant;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Streams a text that is already whole as a model would stream it: a word (with the whitespace after it) at a
 * time. Both providers stream a review's analysis this way once the service has written it, and the conversation a
 * safety policy's reply.
 */
public final class WordByWord {

    private static final Pattern PIECE = Pattern.compile("\\S+\\s*|\\s+");

    private WordByWord() {}

    /**
     * Hands {@code content} to {@code tokens} piece by piece, pausing {@code delay} before each; concatenated, the
     * pieces are {@code content}.
     *
     * @return the number of pieces
     * @throws AssistantFailure when the calling thread is interrupted (the reply was cancelled)
     */
    static int stream(String content, Consumer<String> tokens, Duration delay) {
        int pieces = 0;
        Matcher matcher = PIECE.matcher(content);
        while (matcher.find()) {
            pause(delay);
            tokens.accept(matcher.group());
            pieces++;
        }
        return pieces;
    }

    /** Hands {@code content} to {@code tokens} piece by piece, at once: a fixed text the service answers with. */
    public static void stream(String content, Consumer<String> tokens) {
        Matcher matcher = PIECE.matcher(content);
        while (matcher.find()) {
            tokens.accept(matcher.group());
        }
    }

    private static void pause(Duration delay) {
        if (delay.isZero()) {
            if (Thread.currentThread().isInterrupted()) {
                throw new AssistantFailure(AssistantFailure.Kind.CANCELLED, "The reply was cancelled", null);
            }
            return;
        }
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssistantFailure(AssistantFailure.Kind.CANCELLED, "The reply was cancelled", e);
        }
    }
}
