package com.chatreview.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Every digest starts fresh, whatever the others were fed before or are fed at the same time. */
class Sha256Tests {

    private static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @Test
    void givesTheStandardDigestWholeOrInPieces() {
        assertThat(HexFormat.of().formatHex(Sha256.of("abc"))).isEqualTo(ABC);
        MessageDigest pieces = Sha256.digest();
        pieces.update("a".getBytes(StandardCharsets.UTF_8));
        MessageDigest other = Sha256.digest();
        other.update("something else".getBytes(StandardCharsets.UTF_8));
        pieces.update("bc".getBytes(StandardCharsets.UTF_8));
        assertThat(HexFormat.of().formatHex(pieces.digest())).isEqualTo(ABC);
        assertThat(HexFormat.of().formatHex(Sha256.digest().digest("abc".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(ABC);
    }

    @Test
    void digestsMadeAtOnceOnManyThreadsAgree() throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Callable<String>> tasks = IntStream.range(0, 2_000)
                    .<Callable<String>>mapToObj(i -> () -> HexFormat.of().formatHex(Sha256.of("abc")))
                    .toList();
            for (Future<String> digest : threads.invokeAll(tasks)) {
                assertThat(digest.get()).isEqualTo(ABC);
            }
        }
    }
}
