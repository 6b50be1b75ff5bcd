package com.chatreview.submission.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.submission.ExtractedText;
import com.chatreview.submission.Fixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.mime.MediaType;
import org.apache.tika.parser.AbstractParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.html.JSoupParser;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.xml.sax.ContentHandler;

/** What the review gets to read of each kind of uploaded file. */
@Tag("process")
class TextExtractionTests {

    static final int BUDGET = 100_000;
    static final String DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    static final String ODT = "application/vnd.oasis.opendocument.text";
    static final UUID TENANT = UUID.randomUUID();

    final TextExtraction extraction = new TextExtraction();

    @Test
    void plainTextIsDecodedFromUtf8Utf16AndLatin1() {
        String text = "Grüße, café, naïve, € and 😀\nsecond line\n";

        assertThat(extract("notes.txt", "text/plain", text.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(ExtractedText.read(text, false));
        assertThat(extract("notes.txt", "text/plain", withBom(StandardCharsets.UTF_8, text)))
                .isEqualTo(ExtractedText.read(text, false));
        assertThat(extract("notes.txt", "text/plain", withBom(StandardCharsets.UTF_16LE, text)))
                .isEqualTo(ExtractedText.read(text, false));
        assertThat(extract("notes.txt", "text/plain", withBom(StandardCharsets.UTF_16BE, text)))
                .isEqualTo(ExtractedText.read(text, false));
        String latin = "Grüße aus Köln, café crème\n";
        assertThat(extract("notes.txt", "text/plain", latin.getBytes(StandardCharsets.ISO_8859_1)))
                .isEqualTo(ExtractedText.read(latin, false));
        assertThat(extract("quote.txt", "text/plain", "“quoted” – dash\n".getBytes(Charset.forName("windows-1252"))))
                .isEqualTo(ExtractedText.read("“quoted” – dash\n", false));
    }

    @Test
    void sourceCodeKeepsItsLinesSoTheReviewerCanPointAtThem() {
        String python = String.join(
                "\n",
                "import sys",
                "",
                "",
                "def total(numbers):",
                "    \"\"\"Sum them.\"\"\"",
                "    return sum(numbers)   \t",
                "",
                "",
                "if __name__ == \"__main__\":",
                "    print(total([1, 2]))  # line 10",
                "");
        String java = "package demo;\r\n\r\npublic class Main {\r\n    public static void main(String[] args) {\r\n"
                + "        System.out.println(\"<b>not html</b>\");\r\n    }\r\n}\r\n";
        String oldMac = "line 1\rline 2\r\rline 4";

        ExtractedText py = extract("main.py", "text/x-python", python.getBytes(StandardCharsets.UTF_8));
        ExtractedText main = extract("Main.java", "text/x-java-source", java.getBytes(StandardCharsets.UTF_8));
        ExtractedText mac = extract("old.txt", "text/plain", oldMac.getBytes(StandardCharsets.UTF_8));

        assertThat(py).isEqualTo(ExtractedText.read(python, false));
        assertThat(py.text().split("\n", -1)[9]).isEqualTo("    print(total([1, 2]))  # line 10");
        assertThat(py.text().split("\n", -1)[5]).isEqualTo("    return sum(numbers)   \t");
        assertThat(main.text()).isEqualTo(java.replace("\r\n", "\n"));
        assertThat(main.text().split("\n")[4]).contains("System.out.println(\"<b>not html</b>\")");
        assertThat(mac.text()).isEqualTo("line 1\nline 2\n\nline 4");
    }

    @Test
    void markdownJsonXmlAndShellAreTextAsWritten() {
        String markdown = "# Report\n\nSome *emphasis* and `code`.\n\n```python\nprint(1)\n```\n";
        String json = "{\n  \"a\": [1, 2]\n}\n";
        String xml = "<?xml version=\"1.0\"?>\n<root>\n  <item>1</item>\n</root>\n";
        String shell = "#!/bin/sh\necho \"$1\"\n";

        assertThat(extract("README.md", "text/markdown", utf8(markdown)).text()).isEqualTo(markdown);
        assertThat(extract("data.json", "application/json", utf8(json)).text()).isEqualTo(json);
        assertThat(extract("pom.xml", "application/xml", utf8(xml)).text()).isEqualTo(xml);
        assertThat(extract("run.sh", "application/x-sh", utf8(shell)).text()).isEqualTo(shell);
    }

    @Test
    void textOfAnUnknownOrVagueTypeIsReadWhenItsBytesAreText() {
        String kotlin = "fun main() {\n    println(\"hi\")\n}\n";

        assertThat(extract("Main.kt", "application/octet-stream", utf8(kotlin)))
                .isEqualTo(ExtractedText.read(kotlin, false));
        assertThat(extract("app.ts", "video/mp2t", utf8("const x: number = 1;\n")))
                .isEqualTo(ExtractedText.read("const x: number = 1;\n", false));
        assertThat(extract("no-type", null, utf8(kotlin))).isEqualTo(ExtractedText.read(kotlin, false));
    }

    @Test
    void whitespaceOnlyTextIsStillText() {
        assertThat(extract("blank.txt", "text/plain", utf8("  \n\t\n")))
                .isEqualTo(ExtractedText.read("  \n\t\n", false));
    }

    @Test
    void htmlGivesItsVisibleTextWithoutScriptOrStyle() {
        String html = """
                <!DOCTYPE html>
                <html><head><title>Page</title>
                <style>.hidden { color: red; } /* style-secret */</style>
                <script>var secret = "script-secret"; alert(secret);</script></head>
                <body><h1>Visible heading</h1><p>Visible <b>paragraph</b>.</p>
                <script>document.write("inline-script-secret")</script></body></html>
                """;

        ExtractedText text = extract("page.html", "text/html", utf8(html));

        assertThat(text.opened()).isTrue();
        assertThat(text.text()).contains("Visible heading", "Visible paragraph.");
        assertThat(text.text()).doesNotContain("script-secret", "style-secret", "<p>", "inline-script-secret");
    }

    @Test
    void pdfTextIsExtractedButNotItsAttachments() {
        byte[] pdf = Fixtures.pdf(List.of("First line of the PDF", "Second line"), "ATTACHMENT-SECRET-TEXT");

        ExtractedText text = extract("report.pdf", "application/pdf", pdf);

        assertThat(text.opened()).as(String.valueOf(text.notOpened())).isTrue();
        assertThat(text.truncated()).isFalse();
        assertThat(text.text()).contains("First line of the PDF", "Second line");
        assertThat(text.text()).doesNotContain("ATTACHMENT-SECRET-TEXT");
    }

    @Test
    void docxAndOdtAreRead_evenWhenStoredAsZip() {
        byte[] docx = Fixtures.docx(List.of("Word paragraph one", "Word paragraph two"));
        byte[] odt = Fixtures.odt(List.of("Writer paragraph one", "Writer paragraph two"));

        for (String type : new String[] {DOCX, "application/zip", null}) {
            ExtractedText text = extract("essay.docx", type, docx);
            assertThat(text.notOpened()).as(type).isNull();
            assertThat(text.text()).as(type).contains("Word paragraph one", "Word paragraph two");
        }
        for (String type : new String[] {ODT, "application/zip", null}) {
            ExtractedText text = extract("essay.odt", type, odt);
            assertThat(text.notOpened()).as(type).isNull();
            assertThat(text.text()).as(type).contains("Writer paragraph one", "Writer paragraph two");
        }
    }

    @Test
    void rtfIsReadToo() {
        String rtf = "{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}\\f0 Rich text {\\b homework}.\\par Second paragraph.\\par}";

        ExtractedText text = extract("answer.rtf", "application/rtf", utf8(rtf));

        assertThat(text.text())
                .contains("Rich text homework.", "Second paragraph.")
                .doesNotContain("\\par");
    }

    @Test
    void imagesAudioVideoAndBinaryAreListedNotOpened() {
        byte[] png = Fixtures.png();
        byte[] binary = new byte[4096];
        new Random(7).nextBytes(binary);
        binary[10] = 0;

        assertThat(extract("photo.png", "image/png", png))
                .isEqualTo(ExtractedText.notRead("an image: listed, not opened"));
        assertThat(extract("photo.png", null, png)).isEqualTo(ExtractedText.notRead("an image: listed, not opened"));
        assertThat(extract("drawing.svg", "image/svg+xml", utf8("<svg xmlns=\"http://www.w3.org/2000/svg\"/>")))
                .isEqualTo(ExtractedText.notRead("an image: listed, not opened"));
        assertThat(extract("song.mp3", "audio/mpeg", binary))
                .isEqualTo(ExtractedText.notRead("an audio file: listed, not opened"));
        assertThat(extract("clip.mp4", "video/mp4", binary))
                .isEqualTo(ExtractedText.notRead("a video: listed, not opened"));
        assertThat(extract("a.out", "application/octet-stream", binary))
                .isEqualTo(ExtractedText.notRead("a binary file: not opened"));
        assertThat(extract("data.txt", "text/plain", "text\0with a NUL".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(ExtractedText.notRead("a binary file: not opened"));
    }

    @Test
    void archivesAreNeverExpanded() throws IOException {
        byte[] zip = Fixtures.zip(Map.of("inside/solution.py", "print('ARCHIVE-SECRET-TEXT')\n"));
        ByteArrayOutputStream gzip = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gzip)) {
            out.write(utf8("print('ARCHIVE-SECRET-TEXT')\n"));
        }

        for (ExtractedText text : List.of(
                extract("homework.zip", "application/zip", zip),
                extract("homework.zip", null, zip),
                extract("homework.jar", "application/java-archive", zip),
                extract("solution.py.gz", "application/gzip", gzip.toByteArray()),
                extract("solution.py.gz", null, gzip.toByteArray()))) {
            assertThat(text).isEqualTo(ExtractedText.notRead("an archive: not expanded"));
            assertThat(text.text()).doesNotContain("ARCHIVE-SECRET-TEXT");
        }
    }

    @Test
    void aCorruptOrEncryptedDocumentSaysWhyInsteadOfFailing() {
        byte[] pdf = Fixtures.pdf(List.of("Only half of this survives"), null);
        byte[] halfPdf = Arrays.copyOf(pdf, pdf.length / 2);
        byte[] notPdf = utf8("%PDF-1.7\nthis is not a PDF at all\n");

        ExtractedText garbage = extract("broken.pdf", "application/pdf", notPdf);
        ExtractedText encryptedPdf = extract("locked.pdf", "application/pdf", Fixtures.encryptedPdf("locked text"));
        ExtractedText brokenDocx = extract("broken.docx", DOCX, Arrays.copyOf(Fixtures.docx(List.of("x")), 300));
        ExtractedText encryptedDocx = extract("locked.docx", null, Fixtures.encryptedDocx(List.of("locked text")));

        assertThat(garbage.notOpened()).startsWith("could not be read: ");
        assertThat(extract("half.pdf", "application/pdf", halfPdf).notOpened()).startsWith("could not be read: ");
        assertThat(encryptedPdf)
                .isEqualTo(ExtractedText.notRead("could not be read: it is encrypted (password protected)"));
        assertThat(brokenDocx.notOpened()).startsWith("could not be read: ");
        assertThat(encryptedDocx)
                .isEqualTo(ExtractedText.notRead("could not be read: it is encrypted (password protected)"));
        for (ExtractedText text : List.of(garbage, brokenDocx)) {
            assertThat(text.notOpened()).hasSizeLessThan(160);
        }
    }

    @Test
    void aNulCharacterPastTheBinaryCheckIsReplacedSinceNoDatabaseTextHoldsIt() {
        String text = "x = 1\n".repeat(12_000) + "\u0000 after the first 64 KiB\n";

        ExtractedText read = extract("notes.txt", "text/plain", utf8(text));

        assertThat(read.text()).doesNotContain("\u0000").contains("\uFFFD after the first 64 KiB");
    }

    @Test
    void aParserStillWritingWhenItsTimeIsUpIsStopped() {
        TextExtraction impatient = new TextExtraction(Duration.ofNanos(1));
        byte[] pdf = Fixtures.pdf(List.of("Read after the deadline"), null);

        ExtractedText text =
                impatient.extract(TENANT, "slow.pdf", "application/pdf", new ByteArrayInputStream(pdf), BUDGET);

        assertThat(text.notOpened()).startsWith("could not be read: parsing it took longer than ");
        assertThat(extract("slow.pdf", "application/pdf", pdf).text()).contains("Read after the deadline");
    }

    @Test
    void aParserThatLoopsWithoutWritingIsStoppedWithItsProcessAndTheNextFileIsReadAgain() throws Exception {
        Set<Long> before = descendants();
        TextExtraction extraction = new TextExtraction(
                Duration.ofSeconds(2),
                Map.of(MediaType.application("pdf"), new SpinningParser(), MediaType.text("html"), new JSoupParser()));
        try {
            long started = System.nanoTime();
            ExtractedText spun = extraction.extract(
                    TENANT,
                    "loop.pdf",
                    "application/pdf",
                    new ByteArrayInputStream(Fixtures.pdf(List.of("x"), null)),
                    BUDGET);
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(spun).isEqualTo(ExtractedText.notRead("could not be read: parsing it took longer than 2 s"));
            assertThat(took).isLessThan(Duration.ofSeconds(10));
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!before.containsAll(descendants()) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(descendants())
                    .as("the spinning parser's process is gone")
                    .isSubsetOf(before);
            assertThat(extraction
                            .extract(
                                    TENANT,
                                    "page.html",
                                    "text/html",
                                    new ByteArrayInputStream(utf8("<p>Read by a new process</p>")),
                                    BUDGET)
                            .text())
                    .contains("Read by a new process");
        } finally {
            extraction.close();
        }
    }

    /** A parser that never returns and never writes: only ending its process stops it. */
    static final class SpinningParser extends AbstractParser {
        @Override
        public Set<MediaType> getSupportedTypes(ParseContext context) {
            return Set.of(MediaType.application("pdf"));
        }

        @Override
        public void parse(InputStream stream, ContentHandler handler, Metadata metadata, ParseContext context) {
            long spins = 0;
            while (spins >= 0) {
                spins++;
                Thread.onSpinWait();
            }
        }
    }

    private static Set<Long> descendants() {
        return ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    @Test
    void aStreamThatFailsIsAFileThatCouldNotBeRead() {
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("disk on fire");
            }
        };

        assertThat(extraction.extract(TENANT, "notes.txt", "text/plain", failing, BUDGET))
                .isEqualTo(ExtractedText.notRead("could not be read: reading it failed (disk on fire)"));
    }

    @Test
    void textStopsAtTheBudget() {
        String text = "0123456789\n".repeat(100);

        assertThat(extract("long.txt", "text/plain", utf8(text), 55))
                .isEqualTo(ExtractedText.read(text.substring(0, 55), true));
        assertThat(extract("exact.txt", "text/plain", utf8(text), text.length()))
                .isEqualTo(ExtractedText.read(text, false));
        assertThat(extract("crlf.txt", "text/plain", utf8("ab\r\ncd\r\n"), 6))
                .isEqualTo(ExtractedText.read("ab\ncd\n", false));
        assertThat(extract("emoji.txt", "text/plain", utf8("ab😀"), 3)).isEqualTo(ExtractedText.read("ab", true));
    }

    @Test
    void documentsStopAtTheBudget() {
        List<String> paragraphs = new ArrayList<>();
        for (int i = 1; i <= 200; i++) {
            paragraphs.add("Paragraph number " + i + " of a long essay.");
        }

        ExtractedText docx = extract("long.docx", DOCX, Fixtures.docx(paragraphs), 500);
        ExtractedText pdf = extract("long.pdf", "application/pdf", Fixtures.pdf(paragraphs.subList(0, 40), null), 300);

        assertThat(docx.truncated()).isTrue();
        assertThat(docx.text()).hasSizeLessThanOrEqualTo(500).contains("Paragraph number 1 of");
        assertThat(docx.text()).doesNotContain("Paragraph number 200");
        assertThat(pdf.truncated()).isTrue();
        assertThat(pdf.text()).hasSizeLessThanOrEqualTo(300).contains("Paragraph number 1 of");
    }

    @Test
    void aTenMibFileIsReadOnlyUpToTheBudget() {
        byte[] big = utf8("x = 1  # a line of a big generated file\n".repeat(10 * 1024 * 1024 / 40));
        byte[] binary = new byte[10 * 1024 * 1024];

        ExtractedText text = extract("big.py", "text/x-python", big, 50_000);

        assertThat(text.truncated()).isTrue();
        assertThat(text.text()).hasSize(50_000).startsWith("x = 1  # a line");
        assertThat(extract("big.bin", "application/octet-stream", binary))
                .isEqualTo(ExtractedText.notRead("a binary file: not opened"));
    }

    @Test
    void theCallersStreamIsLeftOpen() {
        boolean[] closed = {false};
        InputStream content = new FilterInputStream(new ByteArrayInputStream(utf8("hello\n"))) {
            @Override
            public void close() throws IOException {
                closed[0] = true;
                super.close();
            }
        };

        assertThat(extraction
                        .extract(TENANT, "hello.txt", "text/plain", content, BUDGET)
                        .text())
                .isEqualTo("hello\n");
        assertThat(closed[0]).isFalse();
    }

    private ExtractedText extract(String fileName, @Nullable String contentType, byte[] content) {
        return extract(fileName, contentType, content, BUDGET);
    }

    private ExtractedText extract(String fileName, @Nullable String contentType, byte[] content, int maxChars) {
        return extraction.extract(TENANT, fileName, contentType, new ByteArrayInputStream(content), maxChars);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] withBom(Charset charset, String text) {
        byte[] bom = switch (charset.name()) {
            case "UTF-8" -> new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
            case "UTF-16LE" -> new byte[] {(byte) 0xFF, (byte) 0xFE};
            case "UTF-16BE" -> new byte[] {(byte) 0xFE, (byte) 0xFF};
            default -> throw new IllegalArgumentException(charset.name());
        };
        byte[] body = text.getBytes(charset);
        byte[] all = Arrays.copyOf(bom, bom.length + body.length);
        System.arraycopy(body, 0, all, bom.length, body.length);
        return all;
    }
}
