package com.chatreview.submission.extraction;

import com.chatreview.submission.ExtractedText;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Plain text and source code as written: the encoding is told from the first {@value #WINDOW} bytes (a byte order
 * mark, else UTF-8 when they are valid UTF-8, else windows-1252), line endings become {@code \n}, and nothing else
 * changes, so line numbers stay those of the file.
 */
final class PlainText {

    /** How much of a file is looked at to tell text from binary and to choose its encoding. */
    static final int WINDOW = 64 * 1024;

    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

    private PlainText() {}

    /**
     * How the bytes would be read as text.
     *
     * @param charset {@code null} when they are not text
     * @param bom the length of the byte order mark to skip
     */
    record Encoding(@Nullable Charset charset, int bom) {

        static final Encoding BINARY = new Encoding(null, 0);

        boolean text() {
            return charset != null;
        }
    }

    /** Looks at the start of the stream and puts it back where it was: the stream must support mark. */
    static Encoding sniff(InputStream in) throws IOException {
        in.mark(WINDOW);
        byte[] start;
        try {
            start = in.readNBytes(WINDOW);
        } finally {
            in.reset();
        }
        return encodingOf(start, start.length < WINDOW);
    }

    /**
     * The text of the stream, at most {@code maxChars} characters (after line endings are made {@code \n}).
     * Reads no further than it needs.
     */
    static ExtractedText read(InputStream in, Encoding encoding, int maxChars) throws IOException {
        in.skipNBytes(encoding.bom());
        Reader reader = new InputStreamReader(in, encoding.charset());
        StringBuilder text = new StringBuilder(Math.min(maxChars, WINDOW));
        char[] buffer = new char[8192];
        boolean afterCarriageReturn = false;
        for (int n = reader.read(buffer); n != -1; n = reader.read(buffer)) {
            for (int i = 0; i < n; i++) {
                char c = buffer[i];
                if (c == '\n' && afterCarriageReturn) {
                    afterCarriageReturn = false;
                    continue;
                }
                if (text.length() == maxChars) {
                    return ExtractedText.read(withoutHalfPair(text), true);
                }
                afterCarriageReturn = c == '\r';
                text.append(afterCarriageReturn ? '\n' : c);
            }
        }
        return ExtractedText.read(text.toString(), false);
    }

    static Encoding encodingOf(byte[] start, boolean whole) {
        if (startsWith(start, 0xEF, 0xBB, 0xBF)) {
            return new Encoding(StandardCharsets.UTF_8, 3);
        }
        if (startsWith(start, 0xFE, 0xFF)) {
            return new Encoding(StandardCharsets.UTF_16BE, 2);
        }
        if (startsWith(start, 0xFF, 0xFE)) {
            return new Encoding(StandardCharsets.UTF_16LE, 2);
        }
        if (looksBinary(start)) {
            return Encoding.BINARY;
        }
        return new Encoding(validUtf8(start, whole) ? StandardCharsets.UTF_8 : WINDOWS_1252, 0);
    }

    /**
     * A NUL byte, or more than one control character in 50 (tab, line breaks, form feed and escape are text),
     * is not what anyone types.
     */
    private static boolean looksBinary(byte[] bytes) {
        int controls = 0;
        for (byte b : bytes) {
            if (b == 0) {
                return true;
            }
            if ((b > 0 && b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != 0x1B) || b == 0x7F) {
                controls++;
            }
        }
        return controls * 50 > bytes.length;
    }

    /** A multi-byte character cut by the end of the window is not held against the file. */
    private static boolean validUtf8(byte[] bytes, boolean whole) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(8192);
        while (true) {
            CoderResult result = decoder.decode(in, out, whole);
            if (result.isError()) {
                return false;
            }
            if (result.isUnderflow()) {
                return !whole || !decoder.flush(out).isError();
            }
            out.clear();
        }
    }

    private static boolean startsWith(byte[] bytes, int... prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((bytes[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static String withoutHalfPair(StringBuilder text) {
        int end = text.length();
        return end > 0 && Character.isHighSurrogate(text.charAt(end - 1))
                ? text.substring(0, end - 1)
                : text.toString();
    }
}
