package com.chatreview.web;

import java.nio.charset.StandardCharsets;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.json.UTF8JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;

/**
 * A long text field (a message's content) written as the same JSON string Jackson writes, faster: text that is
 * printable ASCII without {@code "}, {@code \} or {@code /} needs no escaping, so its bytes go out as they are
 * (the JDK encodes such a string with one array copy, and one pass over the bytes checks it; Jackson's escaping
 * loop was a fifth of the CPU of serving a page of messages). Any other text, and any other output than UTF-8 JSON,
 * is left to Jackson.
 */
public final class PlainTextSerializer extends ValueSerializer<String> {

    private static final byte PLAIN = 0;
    private static final byte ESCAPED = 1;
    private static final byte QUESTION_MARK = 2;

    /** What each ASCII byte needs: the JDK writes an unpaired surrogate as {@code ?}, so that one is looked at. */
    private static final byte[] ASCII = new byte[128];

    static {
        for (int c = 0; c < 0x20; c++) {
            ASCII[c] = ESCAPED;
        }
        ASCII['"'] = ESCAPED;
        ASCII['\\'] = ESCAPED;
        ASCII['/'] = ESCAPED; // not escaped by default, but Jackson may be told to
        ASCII[0x7f] = ESCAPED;
        ASCII['?'] = QUESTION_MARK;
    }

    @Override
    public void serialize(String value, JsonGenerator generator, SerializationContext context) {
        if (generator instanceof UTF8JsonGenerator) {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            if (bytes.length == value.length() && plain(bytes, value)) {
                generator.writeRawUTF8String(bytes, 0, bytes.length);
                return;
            }
        }
        generator.writeString(value);
    }

    /** Whether the bytes, one per character of the value, are all printable ASCII that JSON leaves as it is. */
    private static boolean plain(byte[] bytes, String value) {
        boolean questionMark = false;
        for (byte b : bytes) {
            if (b < 0) {
                return false;
            }
            byte need = ASCII[b];
            if (need == ESCAPED) {
                return false;
            }
            questionMark |= need == QUESTION_MARK;
        }
        return !questionMark || value.chars().noneMatch(c -> Character.isSurrogate((char) c));
    }
}
