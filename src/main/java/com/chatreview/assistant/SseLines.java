package com.chatreview.assistant;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a server-sent event stream, split from its bytes as they arrive in pieces of any size: a line ends at
 * LF, CR or CRLF, as the format has it. The bytes are handed on as they are (a line is whole, so no character is cut);
 * nothing is decoded that is not read.
 */
final class SseLines {

    static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    /** Longer than any chunk of a reply: a stream whose line goes on past this is not one. */
    static final int MAX_LINE_BYTES = 8 << 20;

    /** What is done with each line. */
    @FunctionalInterface
    interface Handler {
        /**
         * @param line the line's bytes, without its end, in {@code line[0, length)}; valid during the call only
         * @return whether the line counted (a chunk of the reply)
         */
        boolean line(byte[] line, int length);
    }

    private byte[] pending = new byte[512];
    private int length;
    /** The last piece ended with a CR: an LF that starts the next one ends the same line. */
    private boolean afterCr;

    /** Hands {@code handler} every line the bytes complete; whether any of them counted. */
    boolean feed(ByteBuffer bytes, Handler handler) {
        boolean counted = false;
        while (bytes.hasRemaining()) {
            byte next = bytes.get();
            if (afterCr) {
                afterCr = false;
                if (next == '\n') {
                    continue;
                }
            }
            if (next == '\n' || next == '\r') {
                afterCr = next == '\r';
                counted |= handler.line(pending, length);
                length = 0;
            } else {
                append(next);
            }
        }
        return counted;
    }

    /** The stream ended: a last line without its end is a line all the same. */
    boolean end(Handler handler) {
        if (length == 0) {
            return false;
        }
        boolean counted = handler.line(pending, length);
        length = 0;
        return counted;
    }

    private void append(byte next) {
        if (length == pending.length) {
            if (length >= MAX_LINE_BYTES) {
                throw new AssistantFailure(
                        "The AI provider's reply could not be read: a line of its stream is longer than "
                                + (MAX_LINE_BYTES >> 20) + " MiB");
            }
            pending = Arrays.copyOf(pending, Math.min(MAX_LINE_BYTES, length * 2));
        }
        pending[length++] = next;
    }

    /** Whether the line is a {@code data:} line. */
    static boolean isData(byte[] line, int length) {
        return length >= DATA.length && Arrays.equals(line, 0, DATA.length, DATA, 0, DATA.length);
    }

    /** Whether {@code line[start, end)} is the stream's {@code [DONE]}. */
    static boolean isDone(byte[] line, int start, int end) {
        return Arrays.equals(line, start, end, DONE, 0, DONE.length);
    }
}
