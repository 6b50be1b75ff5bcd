package com.chatreview.submission.extraction;

import com.chatreview.submission.ExtractedText;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serial;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.commons.io.input.CloseShieldInputStream;
import org.apache.tika.detect.DefaultDetector;
import org.apache.tika.detect.Detector;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.WriteLimitReachedException;
import org.apache.tika.extractor.EmbeddedDocumentExtractor;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.mime.MediaType;
import org.apache.tika.mime.MediaTypeRegistry;
import org.apache.tika.mime.MimeTypes;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.parser.html.JSoupParser;
import org.apache.tika.parser.microsoft.OfficeParser;
import org.apache.tika.parser.microsoft.ooxml.OOXMLParser;
import org.apache.tika.parser.microsoft.rtf.RTFParser;
import org.apache.tika.parser.odf.OpenDocumentParser;
import org.apache.tika.parser.pdf.PDFParser;
import org.apache.tika.parser.pdf.PDFParserConfig;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.xml.sax.ContentHandler;

/**
 * The text of an uploaded file for the review. Plain text and source code of any language are decoded as they are
 * (see {@link PlainText}); PDF, Word (DOCX and DOC), OpenDocument, RTF and HTML (its visible text) go through Tika's
 * parsers; images, audio, video, archives and other binary files are listed by name and never opened. Nothing inside
 * a file is opened either: no archive is expanded, and no attachment or embedded document of a PDF or an office file
 * is parsed. The budget bounds the work: plain text is read no further than {@code maxChars}, and a parser is stopped
 * when it has written that much, or after {@link #PARSE_TIME_LIMIT}: documents are parsed in processes of their own
 * ({@link ForkedParsers}), so that even a parser that loops without writing anything is stopped.
 */
@Component
public class TextExtraction {

    private static final Logger log = LoggerFactory.getLogger(TextExtraction.class);

    /** Far more than a real homework document needs (a 100-page PDF takes about a second). */
    static final Duration PARSE_TIME_LIMIT = Duration.ofSeconds(30);

    /**
     * Types that say little about a file: its bytes are looked at again. Uploads stored before the zip-container
     * detectors were on the class path say {@code application/zip} for DOCX and ODT.
     */
    private static final Set<MediaType> VAGUE = Set.of(
            MediaType.OCTET_STREAM,
            MediaType.APPLICATION_ZIP,
            MediaType.application("x-tika-ooxml"),
            MediaType.application("x-tika-msoffice"));

    private static final List<MediaType> ARCHIVES = List.of(
            MediaType.APPLICATION_ZIP,
            MediaType.application("gzip"),
            MediaType.application("x-tar"),
            MediaType.application("x-gtar"),
            MediaType.application("x-bzip"),
            MediaType.application("x-bzip2"),
            MediaType.application("x-xz"),
            MediaType.application("x-lzma"),
            MediaType.application("x-lzip"),
            MediaType.application("zstd"),
            MediaType.application("x-compress"),
            MediaType.application("x-7z-compressed"),
            MediaType.application("x-rar-compressed"),
            MediaType.application("vnd.rar"),
            MediaType.application("x-cpio"),
            MediaType.application("x-archive"),
            MediaType.application("x-iso9660-image"));

    /**
     * An attachment or embedded document is never handed to a parser: its text is not the file's. Serializable: it
     * goes to the parser's process with the parse context.
     */
    private static final class NothingEmbedded implements EmbeddedDocumentExtractor, Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public boolean shouldParseEmbedded(Metadata metadata) {
            return false;
        }

        @Override
        public void parseEmbedded(InputStream stream, ContentHandler handler, Metadata metadata, boolean outputHtml) {}
    }

    /** Documents parsed at once, each in a JVM of its own; more wait for one. */
    static final int PARSER_PROCESSES = 2;

    private final MediaTypeRegistry types;
    private final Detector detector;
    private final Map<MediaType, Parser> documents;
    private final ForkedParsers forked;
    private final PDFParserConfig pdf;
    private final Duration parseTimeLimit;

    TextExtraction() {
        this(PARSE_TIME_LIMIT);
    }

    TextExtraction(Duration parseTimeLimit) {
        this(
                parseTimeLimit,
                byType(
                        new PDFParser(),
                        new OOXMLParser(),
                        new OfficeParser(),
                        new OpenDocumentParser(),
                        new RTFParser(),
                        new JSoupParser()));
    }

    /** The seam for tests: these parsers for these types (and their subtypes), in place of the documents'. */
    TextExtraction(Duration parseTimeLimit, Map<MediaType, Parser> documents) {
        this.parseTimeLimit = parseTimeLimit;
        MimeTypes mimeTypes = MimeTypes.getDefaultMimeTypes();
        this.types = mimeTypes.getMediaTypeRegistry();
        this.detector = new DefaultDetector(mimeTypes);
        this.documents = Map.copyOf(documents);
        this.forked = new ForkedParsers(this.documents, parseTimeLimit, PARSER_PROCESSES);
        this.pdf = pdfSettings();
    }

    /** The parsers' processes end with the service. */
    @PreDestroy
    void close() {
        forked.close();
    }

    /**
     * Never throws for bad content: a file that cannot be read comes back with {@code notOpened} saying why.
     *
     * @param tenantId whose file it is: documents wait for a parser by turns of tenants
     * @param contentType what {@code Uploads} detected; looked at again when it says little
     * @param content the file's bytes; read, not closed
     * @param maxChars the budget: at most this many characters of text, {@code truncated} when there was more
     */
    public ExtractedText extract(
            UUID tenantId, String fileName, @Nullable String contentType, InputStream content, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be at least 1, got " + maxChars);
        }
        try (TikaInputStream in = TikaInputStream.get(CloseShieldInputStream.wrap(content))) {
            MediaType type = typeOf(fileName, contentType, in);
            MediaType parsed = parsedAs(type);
            if (parsed != null) {
                return document(tenantId, fileName, parsed, in, maxChars);
            }
            if ("image".equals(type.getType())) {
                return ExtractedText.notRead("an image: listed, not opened");
            }
            PlainText.Encoding encoding = PlainText.sniff(in);
            return encoding.text() ? PlainText.read(in, encoding, maxChars) : ExtractedText.notRead(notText(type));
        } catch (IOException | RuntimeException | LinkageError | StackOverflowError e) {
            return couldNotRead(fileName, "reading it failed", e);
        }
    }

    private MediaType typeOf(String fileName, @Nullable String contentType, TikaInputStream in) throws IOException {
        MediaType declared = contentType == null ? null : MediaType.parse(contentType);
        if (declared != null && !VAGUE.contains(declared.getBaseType())) {
            return declared.getBaseType();
        }
        Metadata metadata = new Metadata();
        metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, fileName);
        return detector.detect(in, metadata).getBaseType();
    }

    /** The type, or its nearest supertype, that has a parser; {@code null} when it is not a document. */
    private @Nullable MediaType parsedAs(MediaType type) {
        for (MediaType t = types.normalize(type); t != null; t = types.getSupertype(t)) {
            if (documents.containsKey(t)) {
                return t;
            }
        }
        return null;
    }

    /**
     * A document's text, from its parser in a process of its own: stopped at the first thing it writes after the
     * time limit, and its process ended if it is still at work then without writing anything.
     */
    private ExtractedText document(UUID tenantId, String fileName, MediaType type, TikaInputStream in, int maxChars) {
        ForkedParsers.Text text = new ForkedParsers.Text();
        Metadata metadata = ForkedParsers.request(type, maxChars, parseTimeLimit);
        long started = System.nanoTime();
        try {
            forked.parse(tenantId, in, text, metadata, context());
            return ExtractedText.read(withNewlines(text.toString()), false);
        } catch (Exception e) {
            if (WriteLimitReachedException.isWriteLimitReached(e)) {
                return ExtractedText.read(withNewlines(text.toString()), true);
            }
            // the parser's process ended under it: it was still at work, without writing, when its time was up
            boolean outOfTime = System.nanoTime() - started >= parseTimeLimit.toNanos();
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof ForkedParsers.TimeLimitReached || outOfTime && t instanceof IOException) {
                    String reason = "could not be read: parsing it took longer than " + seconds(parseTimeLimit);
                    log.info("The text of {}: {}", fileName, reason);
                    return ExtractedText.notRead(reason);
                }
            }
            return couldNotRead(fileName, "damaged or not what its name says", e);
        }
    }

    private static String seconds(Duration limit) {
        return limit.toMillis() % 1000 == 0 ? limit.toSeconds() + " s" : limit.toMillis() / 1000.0 + " s";
    }

    private ParseContext context() {
        ParseContext context = new ParseContext();
        context.set(EmbeddedDocumentExtractor.class, new NothingEmbedded());
        context.set(PDFParserConfig.class, pdf);
        return context;
    }

    private String notText(MediaType type) {
        if (ARCHIVES.stream().anyMatch(archive -> types.isInstanceOf(type, archive))) {
            return "an archive: not expanded";
        }
        return switch (type.getType()) {
            case "audio" -> "an audio file: listed, not opened";
            case "video" -> "a video: listed, not opened";
            default -> "a binary file: not opened";
        };
    }

    private static ExtractedText couldNotRead(String fileName, String what, Throwable e) {
        String reason = "could not be read: " + reason(what, e);
        log.info("The text of {}: {}", fileName, reason);
        log.debug("Why the text of {} could not be read", fileName, e);
        return ExtractedText.notRead(reason);
    }

    /** Short enough for a person: encrypted, or what went wrong with the innermost cause's first line. */
    private static String reason(String what, Throwable failure) {
        Throwable root = failure;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof EncryptedDocumentException
                    || t instanceof org.apache.poi.EncryptedDocumentException
                    || t instanceof org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException) {
                return "it is encrypted (password protected)";
            }
            root = t;
        }
        return what + " (" + firstLine(root) + ")";
    }

    private static String firstLine(Throwable failure) {
        String message = failure.getMessage() == null
                ? ""
                : failure.getMessage().strip().lines().findFirst().orElse("");
        if (message.isEmpty()) {
            return failure.getClass().getSimpleName();
        }
        return message.length() > 120 ? message.substring(0, 117) + "..." : message;
    }

    private static String withNewlines(String text) {
        return text.replace("\r\n", "\n").replace('\r', '\n');
    }

    private static Map<MediaType, Parser> byType(Parser... parsers) {
        ParseContext context = new ParseContext();
        Map<MediaType, Parser> byType = new HashMap<>();
        for (Parser parser : parsers) {
            for (MediaType type : parser.getSupportedTypes(context)) {
                byType.putIfAbsent(type, parser);
            }
        }
        return Map.copyOf(byType);
    }

    /** No OCR, no inline images; past 64 MiB PDFBox keeps what it reads in temporary files, not in the heap. */
    private static PDFParserConfig pdfSettings() {
        PDFParserConfig pdf = new PDFParserConfig();
        pdf.setOcrStrategy(PDFParserConfig.OCR_STRATEGY.NO_OCR);
        pdf.setExtractInlineImages(false);
        pdf.setExtractActions(false);
        pdf.setMaxMainMemoryBytes(64L * 1024 * 1024);
        return pdf;
    }
}
