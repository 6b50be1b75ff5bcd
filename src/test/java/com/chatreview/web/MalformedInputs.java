package com.chatreview.web;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.generators.Generate;

/**
 * The malformed pieces {@link MalformedInputPropertyTests} builds requests and frames of: values for a request
 * target (percent-encoded or raw bytes), header values, JSON values and bodies, multipart parts, content types.
 * Every choice is drawn from quicktheories' randomness, so that a seed replays it and a failure shrinks: the first
 * option of every list is the plainest, and {@link #chance} shrinks towards "no".
 *
 * <p>Text that stands for bytes on the wire (a request line, a header) is held as ISO-8859-1: each {@code char}
 * is one byte, so {@code "\u00FF"} is the raw byte 0xFF, not the UTF-8 of U+00FF.
 */
final class MalformedInputs {

    private MalformedInputs() {}

    // ---- drawing ------------------------------------------------------------------------------------------------

    static int between(RandomnessSource in, int from, int to) {
        return Generate.range(from, to).generate(in);
    }

    /** True with about this chance; shrinks to false. */
    static long anyLong(RandomnessSource in) {
        return Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE).generate(in);
    }

    static boolean chance(RandomnessSource in, int percent) {
        return between(in, 0, 99) >= 100 - percent;
    }

    static <T> T pick(RandomnessSource in, List<T> options) {
        return options.get(between(in, 0, options.size() - 1));
    }

    /** One of the options, described by its kind, for the failure report and the tallies. */
    record Odd(String kind, String raw) {

        @Override
        public String toString() {
            return kind + ":"
                    + com.chatreview.support.RawHttp.Bytes.shown(raw.getBytes(StandardCharsets.ISO_8859_1), 80);
        }
    }

    private static List<Odd> odds(String kind, String... raws) {
        List<Odd> odds = new ArrayList<>();
        for (String raw : raws) {
            odds.add(new Odd(kind, raw));
        }
        return odds;
    }

    // ---- request target pieces -----------------------------------------------------------------------------------

    /** Percent-encoded (or raw) pieces of a path segment or query value that no strict decoder accepts, and others. */
    static final List<Odd> TARGET_PIECES = concat(
            odds("invalid-percent", "%", "%G1", "%1", "a%", "%%", "%u0041", "%zz", "%%41", "%4"),
            odds("overlong-utf8", "%C0%AF", "%C0%80", "%E0%80%AF", "%F0%80%80%AF", "%C1%BF", "%E0%9F%BF"),
            odds(
                    "invalid-utf8",
                    "%FF",
                    "%FE",
                    "%80",
                    "%C3",
                    "%E2%82",
                    "x%C3y",
                    "%F8%88%80%80%80",
                    "%F4%90%80%80",
                    "%C3%28",
                    "%ED%9F%BF%80"),
            odds("lone-surrogate", "%ED%A0%80", "x%ED%B0%80y", "%ED%BF%BF", "%ED%A0%BD%ED%B8%80", "%ED%A0%80%ED%A0%80"),
            odds("control", "%01", "%1F", "%7F", "%0D%0A", "%09", "%1B%5B31m", "%C2%85", "%E2%80%A8", "a%0Ab", "%08"),
            odds("nul", "%00", "a%00b", "%00%00", "x%00"),
            odds(
                    "number",
                    "-1",
                    "-0",
                    "0",
                    "99999999999999999999999",
                    "-9223372036854775809",
                    "9223372036854775808",
                    "9223372036854775807",
                    "2147483648",
                    "-2147483649",
                    "1e999",
                    "1.5",
                    "NaN",
                    "Infinity",
                    "0x1F",
                    "%2B1",
                    "+1",
                    "%201",
                    "1%20",
                    "%D9%A1",
                    "%EF%BC%91",
                    "1_000",
                    "101",
                    "00000000000000000000000000010"),
            odds(
                    "unicode",
                    "%EF%BF%BF",
                    "%EF%BB%BF",
                    "%E2%80%AE",
                    "%F0%9F%98%80",
                    "%CC%81",
                    "%E2%80%8B",
                    "%EF%BF%BD",
                    "%F4%8F%BF%BF",
                    "%C3%A9"),
            odds(
                    "raw-byte",
                    "\u00FF",
                    "\u00C3\u00A9",
                    "\u0080",
                    "\u00ED\u00A0\u0080",
                    "\u00C0\u00AF",
                    "\u00F0\u009F\u0098\u0080"),
            odds("raw-char", "|", "\"", "{", "}", "^", "`", "\\", "<", ">", "[", "]"),
            odds("raw-control", "\u0001", "\u007F", "\u0000", "\u001B"),
            odds("empty", "", "+", "%20", "%20%20", "%09"),
            odds(
                    "path-like",
                    "%2F",
                    "..",
                    ".",
                    "%2E%2E",
                    "..%2F",
                    "%2e",
                    "%3B",
                    ";x",
                    "%3F",
                    "%23",
                    "%25",
                    "%26",
                    "%3D"),
            odds(
                    "long",
                    "a".repeat(3000),
                    "%F0%9F%98%80".repeat(300),
                    "%FF".repeat(500),
                    "9".repeat(400),
                    "b".repeat(20_000)));

    private static List<Odd> concat(List<Odd>... lists) {
        List<Odd> all = new ArrayList<>();
        for (List<Odd> list : lists) {
            all.addAll(list);
        }
        return List.copyOf(all);
    }

    /** An odd piece, sometimes between plain characters, sometimes two joined. */
    static Odd oddPiece(RandomnessSource in) {
        Odd odd = pick(in, TARGET_PIECES);
        if (chance(in, 30)) {
            odd = new Odd(odd.kind(), "a" + odd.raw() + "b");
        }
        if (chance(in, 15)) {
            Odd second = pick(in, TARGET_PIECES);
            odd = new Odd(odd.kind() + "+" + second.kind(), odd.raw() + second.raw());
        }
        return odd;
    }

    // ---- header values --------------------------------------------------------------------------------------------

    /** Header values: no CR or LF (which would end the header and smuggle another), anything else goes. */
    static final List<Odd> HEADER_VALUES = concat(
            odds("plain", "x"),
            odds("empty", "", " ", "\t"),
            odds("raw-byte", "\u00FF", "\u00C3\u00A9", "\u00ED\u00A0\u0080", "\u00C0\u00AF", "a\u0080b"),
            odds("control", "\u0001", "a\u0000b", "\u007F", "\u001B[31m", "a\u000Bb"),
            odds("percent", "%FF", "%00", "%ED%A0%80", "%"),
            odds("long", "a".repeat(5000), "\u00FF".repeat(2000), "c".repeat(20_000)),
            odds("list", "a, b", ",,,", "a;b=c", "\"quoted\"", "(comment)"),
            odds("number", "-1", "99999999999999999999999", "1e999"));

    /** {@code Host} values (the service builds links, such as a submission's chatIframeUrl, from it). */
    static final List<String> HOSTS = List.of(
            "exa_mple.com",
            "a..b",
            "[::1]:80",
            "[::1",
            "example.com:",
            "EXAMPLE.COM.",
            "example.com:99999",
            "example.com:-1",
            "",
            "1.2.3.4:0",
            "localhost:8080/path",
            "user@example.com",
            "\u00FF.example",
            "a b",
            "%41.example");

    /** Headers whose value the service reads, with odd values: {name, value}. */
    static List<String[]> oddHeaders(RandomnessSource in, List<String> declared) {
        List<String> names = new ArrayList<>(declared);
        names.addAll(List.of(
                "X-Request-Id",
                "Accept",
                "Accept-Charset",
                "Accept-Language",
                "Accept-Encoding",
                "X-Forwarded-For",
                "Forwarded",
                "X-Forwarded-Proto",
                "X-Forwarded-Host",
                "X-Forwarded-Port",
                "Origin",
                "Cookie",
                "If-None-Match",
                "If-Modified-Since",
                "Range",
                "Content-Encoding",
                "Content-Type",
                "Content-Language"));
        List<String[]> headers = new ArrayList<>();
        int count = between(in, 0, 2);
        for (int i = 0; i < count; i++) {
            String name = pick(in, names);
            String value = chance(in, 40)
                    ? pick(in, typicalHeaderValues(name))
                    : pick(in, HEADER_VALUES).raw();
            headers.add(new String[] {name, value});
        }
        return headers;
    }

    /** Values a header of this name is often given, some of them odd for it. */
    private static List<String> typicalHeaderValues(String name) {
        return switch (name) {
            case "Accept" ->
                List.of(
                        "*/*",
                        "application/xml",
                        "text/html",
                        "bogus",
                        "application/json;q=0",
                        "image/png",
                        "text/event-stream",
                        "application/*",
                        "*/*;q=bogus");
            case "Accept-Charset" -> List.of("utf-16", "bogus", "iso-8859-1;q=1, utf-8;q=0");
            case "Accept-Encoding" -> List.of("gzip", "br, zstd", "bogus", "identity;q=0");
            case "X-Forwarded-For" ->
                List.of("1.2.3.4", "999.1.1.1", "::1", "[::1]:80", "unknown", "1.2.3.4, 5.6.7.8", "_hidden");
            case "Forwarded" ->
                List.of("for=1.2.3.4", "for=\"[::1]\"", "for=", "by=;for=;;", "for=unknown;proto=gopher");
            case "X-Forwarded-Proto" -> List.of("https", "gopher", "", "HTTP/1.1");
            case "X-Forwarded-Host" -> List.of("example.com", "example.com:99999", "[::1", "a b", "exa\u00FFmple");
            case "X-Forwarded-Port" -> List.of("443", "-1", "99999999999", "http", "");
            case "Range" -> List.of("bytes=0-1", "bytes=9-1", "bytes=a-b", "lines=1-2");
            case "Content-Encoding" -> List.of("gzip", "deflate", "br", "bogus", "gzip, gzip", "identity");
            case "Content-Type" -> List.of("application/json", "text/plain", "*/*", "multipart/form-data");
            case "If-Modified-Since" -> List.of("yesterday", "Thu, 01 Jan 1970 00:00:00 GMT", "-1");
            default -> List.of("x", "12345678-aaaa-bbbb-cccc-1234567890ab", "a.b:c-d_e");
        };
    }

    // ---- content types ---------------------------------------------------------------------------------------------

    /** Content types to send instead of the declared one; {@code null} sends none. */
    static final List<String> ODD_CONTENT_TYPES = java.util.Collections.unmodifiableList(java.util.Arrays.asList(
            null,
            "*/*",
            "application/*",
            "text/plain; charset=bogus",
            "application/json; charset=bogus",
            "application/json; charset=utf-16",
            "application/json; charset=iso-8859-1",
            "text/plain",
            "text/*",
            "",
            ";",
            "application/json;;;",
            "application/json, text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "multipart/form-data; boundary=",
            "multipart/form-data; boundary=\"unterminated",
            "multipart/mixed; boundary=malformed-boundary",
            "application/xml",
            "\u00FF/\u00FF",
            "application/json\u0001",
            "application/problem+json",
            "application/merge-patch+json",
            "*/*; charset=utf-8",
            "application/*; charset=bogus"));

    // ---- JSON ----------------------------------------------------------------------------------------------------

    /** A JSON text held as a small tree, so that a generator can break it anywhere, even into invalid JSON. */
    sealed interface Json {
        void write(ByteArrayOutputStream out);
    }

    record Member(byte[] key, Json value) {}

    record Obj(List<Member> members) implements Json {
        @Override
        public void write(ByteArrayOutputStream out) {
            out.write('{');
            for (int i = 0; i < members.size(); i++) {
                if (i > 0) {
                    out.write(',');
                }
                out.writeBytes(members.get(i).key());
                out.write(':');
                members.get(i).value().write(out);
            }
            out.write('}');
        }
    }

    record Arr(List<Json> items) implements Json {
        @Override
        public void write(ByteArrayOutputStream out) {
            out.write('[');
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) {
                    out.write(',');
                }
                items.get(i).write(out);
            }
            out.write(']');
        }
    }

    /** A literal, exactly these bytes. */
    record Lit(byte[] bytes) implements Json {
        @Override
        public void write(ByteArrayOutputStream out) {
            out.writeBytes(bytes);
        }
    }

    static Lit lit(String json) {
        return new Lit(json.getBytes(StandardCharsets.UTF_8));
    }

    /** A literal given as ISO-8859-1 text: each char one byte (for bytes that are not UTF-8). */
    static Lit rawLit(String latin1) {
        return new Lit(latin1.getBytes(StandardCharsets.ISO_8859_1));
    }

    static byte[] key(String name) {
        return ("\"" + name + "\"").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] bytes(Json json) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        json.write(out);
        return out.toByteArray();
    }

    static String deepArray(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    static String deepObject(int depth) {
        return "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
    }

    /** JSON values that are wrong, odd or not JSON at all, each as its own kind. */
    static final List<Odd> JSON_VALUES = concat(
            odds("wrong-type", "true", "[]", "{}", "null", "[1]", "{\"a\":1}", "0", "-1", "\"x\"", "\"\"", "\"   \""),
            odds(
                    "lone-surrogate",
                    "\"\\ud800\"",
                    "\"a\\udc00b\"",
                    "\"\\ud800\\ud800\"",
                    "\"\\udfff\\ud800\"",
                    "\"x\\uDBFF\""),
            odds("nul", "\"\\u0000\"", "\"a\\u0000\"", "\"\\u0000\\u0000\""),
            odds(
                    "huge-number",
                    "1e400",
                    "-1e400",
                    "99999999999999999999999999999",
                    "-9223372036854775809",
                    "9223372036854775808",
                    "1.7976931348623159e308",
                    "4.9e-325",
                    "-0",
                    "1E+2147483648",
                    "0.0000000000000000000000000000000000001",
                    "123456789012345678901234567890.123456789"),
            odds(
                    "deep-nesting",
                    deepArray(200),
                    deepArray(1200),
                    deepArray(5000),
                    deepObject(200),
                    deepObject(1200),
                    deepObject(3000)),
            odds(
                    "unicode",
                    "\"\\ud83d\\ude00\"",
                    "\"\\uFFFF\"",
                    "\"\\uFEFF\"",
                    "\"\\u202E\"",
                    "\"\\u0007\"",
                    "\"\\u001B\""),
            odds("long", "\"" + "a".repeat(300) + "\"", "\"" + "\\ud83d\\ude00".repeat(300) + "\""),
            odds(
                    "not-json",
                    "NaN",
                    "Infinity",
                    "'x'",
                    "\"\\uZZZZ\"",
                    "\"\\x41\"",
                    "01",
                    "1.",
                    ".5",
                    "+1",
                    "0x10",
                    "\"unterminated",
                    "tru",
                    "undefined",
                    "[1,]",
                    "{\"a\":1,}",
                    "{\"a\"}",
                    "\"a\"\"b\""),
            odds(
                    "raw-bytes",
                    "\"\u00FF\"",
                    "\"\u00ED\u00A0\u0080\"",
                    "\"\u00C0\u00AF\"",
                    "\"a\u0000b\"",
                    "\"\u0001\"",
                    "\"\u00C3\"",
                    "\"\u00F4\u0090\u0080\u0080\""));

    static Lit oddLiteral(Odd odd) {
        return odd.kind().equals("raw-bytes") ? rawLit(odd.raw()) : lit(odd.raw());
    }

    /** Whole bodies that are not one JSON object. */
    static final List<Odd> ODD_BODIES = concat(
            odds("not-json", "", "{", "}", "{\"a\":", "{a:1}", "{'a':1}", "x", "\u00EF\u00BB\u00BF{}", "{}{}", "{} x"),
            odds("wrong-root", "[]", "42", "\"x\"", "null", "true", "[{}]"),
            odds("raw-bytes", "\u00FF\u00FE{\u0000}\u0000", "\u0000\u0000\u0000", "{\"a\":\"\u00FF\"}", "\u00C0\u00AF"),
            odds("form", "a=%ZZ&b=1", "a=1&a=2", "user_id=x"),
            odds("deep-nesting", deepArray(3000), deepObject(2000)));

    /** Where in a tree a mutation may land: a member of some object. */
    record Slot(Obj owner, int index) {}

    static List<Slot> slots(Json json) {
        List<Slot> slots = new ArrayList<>();
        collect(json, slots);
        return slots;
    }

    private static void collect(Json json, List<Slot> slots) {
        if (json instanceof Obj obj) {
            for (int i = 0; i < obj.members().size(); i++) {
                slots.add(new Slot(obj, i));
                collect(obj.members().get(i).value(), slots);
            }
        } else if (json instanceof Arr arr) {
            arr.items().forEach(item -> collect(item, slots));
        }
    }

    /**
     * Breaks a well-formed object (mutably, it is the generator's own): a value replaced by an odd one, a key
     * repeated, an odd key, an unknown member; returns what it did, for the report.
     */
    static String mutate(RandomnessSource in, Obj root) {
        List<Slot> slots = slots(root);
        int kind = between(in, 0, 4);
        if (slots.isEmpty() || kind == 3) {
            Odd odd = pick(in, JSON_VALUES);
            Obj owner = slots.isEmpty() ? root : pick(in, slots).owner();
            owner.members().add(new Member(key("unknown"), oddLiteral(odd)));
            return "unknown member " + odd;
        }
        Slot slot = pick(in, slots);
        Member member = slot.owner().members().get(slot.index());
        return switch (kind) {
            case 0, 1 -> {
                Odd odd = pick(in, JSON_VALUES);
                slot.owner().members().set(slot.index(), new Member(member.key(), oddLiteral(odd)));
                yield new String(member.key(), StandardCharsets.UTF_8) + "=" + odd;
            }
            case 2 -> {
                Json second = chance(in, 50) ? member.value() : oddLiteral(pick(in, JSON_VALUES));
                slot.owner().members().add(slot.index() + 1, new Member(member.key(), second));
                yield "duplicate-key " + new String(member.key(), StandardCharsets.UTF_8);
            }
            default -> {
                Odd key = pick(
                        in,
                        odds(
                                "odd-key",
                                "\"\"",
                                "\"\\u0000\"",
                                "\"\\ud800\"",
                                "\"\u00FF\"",
                                "\"" + "k".repeat(2000) + "\"",
                                "\"a\\\"b\""));
                slot.owner()
                        .members()
                        .set(slot.index(), new Member(key.raw().getBytes(StandardCharsets.ISO_8859_1), member.value()));
                yield key.toString();
            }
        };
    }

    // ---- multipart -----------------------------------------------------------------------------------------------

    static final String BOUNDARY = "malformed-boundary-7f3a";

    /** A part: its header lines (ISO-8859-1, each one byte a char) and its content. */
    record Part(List<String> headers, byte[] content) {

        Part withContent(byte[] other) {
            return new Part(headers, other);
        }

        static Part field(String name, String value) {
            return new Part(
                    new ArrayList<>(List.of("Content-Disposition: form-data; name=\"" + name + "\"")),
                    value.getBytes(StandardCharsets.UTF_8));
        }

        static Part file(String name, String fileName, String contentType, byte[] content) {
            return new Part(
                    new ArrayList<>(List.of(
                            "Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + fileName + "\"",
                            "Content-Type: " + contentType)),
                    content);
        }
    }

    static byte[] multipart(List<Part> parts, String boundary, String lineEnd, boolean closed) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Part part : parts) {
            out.writeBytes(("--" + boundary + lineEnd).getBytes(StandardCharsets.ISO_8859_1));
            for (String header : part.headers()) {
                out.writeBytes((header + lineEnd).getBytes(StandardCharsets.ISO_8859_1));
            }
            out.writeBytes(lineEnd.getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(part.content());
            out.writeBytes(lineEnd.getBytes(StandardCharsets.ISO_8859_1));
        }
        if (closed) {
            out.writeBytes(("--" + boundary + "--" + lineEnd).getBytes(StandardCharsets.ISO_8859_1));
        }
        return out.toByteArray();
    }

    static final List<Odd> FILE_NAMES = concat(
            odds("plain", "main.py"),
            odds("empty", ""),
            odds("path", "..", "../../etc/passwd", "C:\\\\x\\\\main.py", "/abs/main.py", "a/b.py"),
            odds("raw-byte", "\u00FF\u00FE.py", "\u00ED\u00A0\u0080.py", "\u00C3\u00A9.py", "\u00C0\u00AF.py"),
            odds("control", "a\u0000b.py", "a\u0001b.py", "\u001B[31m.py", "a\tb.py"),
            odds("percent", "%FF.py", "%00.py", "%ED%A0%80.py"),
            odds("odd", "CON", "main.py.", " main.py ", "a\\\"b.py", ".py", "x".repeat(400) + ".py", "a;b=c.py"));

    static final List<Odd> PART_CONTENT_TYPES = concat(
            odds("plain", "text/x-python"),
            odds("odd", "", "bogus", "text/plain; charset=bogus", "*/*", "application/*", "\u00FF/\u00FF"),
            odds("odd", "multipart/mixed; boundary=x", "application/json", "text/plain; charset=utf-16"),
            odds("odd", "application/pdf", "application/zip", "image/png"));

    static final List<Odd> FILE_CONTENTS = concat(
            odds("plain", "def add(a, b):\n    return a + b\n"),
            odds("empty", ""),
            odds(
                    "raw-byte",
                    "\u00FF\u00FE\u0000a\u0000",
                    "\u00ED\u00A0\u0080",
                    "\u00C0\u00AF\u00C3",
                    "\u0000\u0000\u0000"),
            odds(
                    "misnamed",
                    "%PDF-1.4\n%\u00E2\u00E3\u00CF\u00D3\ngarbage",
                    "PK\u0003\u0004garbage",
                    "\u0089PNG\r\n\u001A\ngarbage",
                    "{\\rtf1 garbage"));
}
