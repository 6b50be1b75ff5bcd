package com.chatreview.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/** The hand-written serializers write what the formatter and Jackson's own string writer write, to the byte. */
class JsonConventionsTests {

    private static final JsonMapper JACKSON = JsonMapper.builder().build();

    record Plain(@JsonProperty("text") @Nullable String text) {}

    record Fast(
            @JsonProperty("text") @JsonSerialize(using = PlainTextSerializer.class) @Nullable
            String text) {}

    @Test
    void aTimestampIsTheFormattersTextInEveryYear() {
        JsonMapper timestamps = JsonMapper.builder()
                .addModule(new SimpleModule().addSerializer(Instant.class, new JsonConventions.TimestampSerializer()))
                .build();
        Random random = new Random(42);
        List<Instant> instants = new ArrayList<>(List.of(
                Instant.EPOCH,
                Instant.parse("1000-01-01T00:00:00Z"),
                Instant.parse("0999-12-31T23:59:59.999999999Z"),
                Instant.parse("9999-12-31T23:59:59.999999999Z"),
                Instant.parse("+10000-01-01T00:00:00Z"),
                Instant.parse("-0001-06-01T12:00:00Z"),
                Instant.parse("2024-02-29T23:59:59.000999Z"),
                Instant.parse("2026-11-26T11:19:24.279123Z")));
        for (int i = 0; i < 100_000; i++) {
            instants.add(Instant.ofEpochSecond(
                    random.nextLong(-40_000_000_000L, 300_000_000_000L), random.nextInt(1_000_000_000)));
        }
        for (Instant instant : instants) {
            assertThat(timestamps.writeValueAsString(instant))
                    .as(instant.toString())
                    .isEqualTo("\"" + JsonConventions.TIMESTAMP.format(instant) + "\"");
        }
    }

    @Test
    void aPlainTextIsTheStringJacksonWrites() {
        Random random = new Random(7);
        List<String> texts = new ArrayList<>(List.of(
                "",
                "plain ASCII, with punctuation: ;:!?()[]{}<>&'=+*~`^|#@$%",
                "a/b",
                "what is 1+1? two?",
                "\"quoted\"",
                "back\\slash",
                "line\nbreak\ttab\rreturn\b\f",
                "\u0000\u0001\u001f\u007f",
                "ünïcödé",
                "😀 emoji",
                "\u2028\u2029",
                "\ud800 lone surrogate"));
        String alphabet = "abcXYZ019 \"\\/\n\t\u0001\u007fé😀\u2028<>&'";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(0, 300);
            while (text.length() < length) {
                text.appendCodePoint(
                        random.nextInt(4) == 0
                                ? alphabet.codePointAt(random.nextInt(alphabet.length() - 2))
                                : random.nextInt(0x20, 0x7f));
            }
            texts.add(text.toString());
        }
        for (String text : texts) {
            // as bytes: the string writer (writeValueAsString) is another generator, which writes no raw bytes
            assertThat(new String(JACKSON.writeValueAsBytes(new Fast(text)), StandardCharsets.ISO_8859_1))
                    .as("the text %s", JACKSON.writeValueAsString(text))
                    .isEqualTo(new String(JACKSON.writeValueAsBytes(new Plain(text)), StandardCharsets.ISO_8859_1));
        }
        assertThat(JACKSON.writeValueAsString(new Fast(null))).isEqualTo(JACKSON.writeValueAsString(new Plain(null)));
    }
}
