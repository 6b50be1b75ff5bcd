package com.chatreview.sealing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SealerTests {

    static final byte[] SECRET = "whsec_the-secret".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dataDir;

    @Test
    void aSingleNodeMakesItsKeyInAFileOnlyItsOwnerCanEverRead() throws Exception {
        Path file = dataDir.resolve("keys/sealing.key");
        Sealer first = new Sealer(new SealingSettings(null, file));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        byte[] sealed = first.seal(SECRET);
        assertThat(sealed).hasSize(SECRET.length + Sealer.OVERHEAD);
        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("the-secret");
        assertThat(new Sealer(new SealingSettings(null, file)).open(sealed))
                .as("the same key after a restart")
                .isEqualTo(SECRET);
    }

    @Test
    void whatAnotherKeySealedDoesNotOpen() {
        Sealer operators = new Sealer(
                new SealingSettings("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=", dataDir.resolve("unused.key")));
        Sealer another = new Sealer(new SealingSettings(null, dataDir.resolve("other.key")));

        assertThatThrownBy(() -> another.open(operators.seal(SECRET)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SEALING_KEY");
        assertThatThrownBy(() -> new Sealer(new SealingSettings("c2hvcnQ=", dataDir.resolve("unused.key"))))
                .hasMessageContaining("16, 24 or 32 bytes");
    }
}
