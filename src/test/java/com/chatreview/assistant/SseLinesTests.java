package com.chatreview.assistant;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseLinesTests {

    final SseLines lines = new SseLines();
    final List<String> seen = new ArrayList<>();

    @Test
    void linesEndAtLfCrOrCrlfEvenWhenTheirEndsArriveInDifferentPieces() {
        feed("data: {\"a\":");
        feed("1}\r");
        feed("\ndata: é");
        feed("\n\n: keep-alive\rdata: [DONE]");
        lines.end(this::line);

        assertThat(seen).containsExactly("data: {\"a\":1}", "data: é", "", ": keep-alive", "data: [DONE]");
    }

    @Test
    void aCharacterCutBetweenTwoPiecesIsWholeInItsLine() {
        byte[] bytes = "data: Grüße\n".getBytes(StandardCharsets.UTF_8);
        int cut = "data: Gr".length() + 1; // inside the two bytes of ü
        lines.feed(ByteBuffer.wrap(bytes, 0, cut), this::line);
        lines.feed(ByteBuffer.wrap(bytes, cut, bytes.length - cut), this::line);

        assertThat(seen).containsExactly("data: Grüße");
    }

    @Test
    void dataAndDoneAreRecognisedByTheirBytes() {
        byte[] data = "data: [DONE]".getBytes(StandardCharsets.US_ASCII);
        assertThat(SseLines.isData(data, data.length)).isTrue();
        assertThat(SseLines.isData(data, 4)).isFalse();
        assertThat(SseLines.isDone(data, 6, data.length)).isTrue();
        assertThat(SseLines.isDone(data, 5, data.length)).isFalse();
    }

    private void feed(String text) {
        lines.feed(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), this::line);
    }

    private boolean line(byte[] line, int length) {
        seen.add(new String(line, 0, length, StandardCharsets.UTF_8));
        return true;
    }
}
