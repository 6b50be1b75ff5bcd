package com.chatreview.submission.extraction;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serial;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.tika.exception.TikaException;
import org.apache.tika.fork.ForkParser;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.mime.MediaType;
import org.apache.tika.parser.AbstractParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.sax.BodyContentHandler;
import org.apache.tika.sax.ContentHandlerDecorator;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The document parsers, run in JVMs of their own (Tika's {@link ForkParser}): a parser that loops without writing
 * anything cannot be stopped inside the service's JVM (a thread cannot be killed), but its process can. A parse
 * still under way after the time limit ends its process; the next parse starts a new one. What the parser writes
 * comes back to the caller's handler as it is written, so the caller's own limits (characters, time) apply as
 * before.
 */
final class ForkedParsers implements AutoCloseable {

    /** The child JVMs look at their parse's time this often: the bound is the time limit plus at most this. */
    private static final Duration PULSE = Duration.ofMillis(250);
    /** A child with nothing to do for this long goes away; the next parse starts another. */
    private static final Duration IDLE = Duration.ofMinutes(5);

    private final ForkParser fork;
    /**
     * Parses at once, at most one per process, taken by tenants in turn: no caller ever waits inside
     * {@link ForkParser}, whose pool does not wake a waiting caller when a process it ended (a parse out of time) is
     * let go, and one tenant's pile of documents does not hold up another tenant's.
     */
    private final TurnsByTenant turns;

    ForkedParsers(Map<MediaType, Parser> parsers, Duration parseTimeLimit, int processes) {
        this.turns = new TurnsByTenant(processes);
        this.fork = new ForkParser(ForkedParsers.class.getClassLoader(), new ByType(parsers));
        fork.setJavaCommand(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "-Djava.awt.headless=true"));
        fork.setPoolSize(processes);
        fork.setServerPulseMillis(PULSE.toMillis());
        fork.setServerParseTimeoutMillis(Math.max(1, parseTimeLimit.toMillis()));
        fork.setServerWaitTimeoutMillis(IDLE.toMillis());
    }

    private static final String MAX_CHARS = "chat-review:max-chars";
    private static final String TIME_LIMIT_MILLIS = "chat-review:time-limit-millis";

    /**
     * What to parse: the content type (one of the parsers' keys), the most characters wanted and the time allowed.
     */
    static Metadata request(MediaType type, int maxChars, Duration timeLimit) {
        Metadata metadata = new Metadata();
        metadata.set(Metadata.CONTENT_TYPE, type.toString());
        metadata.set(MAX_CHARS, Integer.toString(maxChars));
        metadata.set(TIME_LIMIT_MILLIS, Long.toString(timeLimit.toMillis()));
        return metadata;
    }

    /**
     * Parses a {@link #request} for the tenant, in its turn: the document's body text comes to {@code handler} in one
     * piece, once the parser is done or stopped. Past the characters wanted it throws Tika's {@code WriteLimitReachedException} (the text up
     * to the limit has come), past the time {@link TimeLimitReached}.
     */
    void parse(UUID tenantId, InputStream in, ContentHandler handler, Metadata metadata, ParseContext context)
            throws IOException, SAXException, TikaException {
        try {
            turns.acquire(tenantId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TikaException("Interrupted while waiting for a parser process", e);
        }
        try {
            fork.parse(in, handler, metadata, context);
        } finally {
            turns.release();
        }
    }

    @Override
    public void close() {
        fork.close();
    }

    /** What the child JVM runs: the parser for the type the caller resolved. Serialized to it, with its parsers. */
    static final class ByType extends AbstractParser {

        @Serial
        private static final long serialVersionUID = 1L;

        private final HashMap<MediaType, Parser> parsers;

        ByType(Map<MediaType, Parser> parsers) {
            this.parsers = new HashMap<>(parsers);
        }

        @Override
        public Set<MediaType> getSupportedTypes(ParseContext context) {
            return Set.copyOf(parsers.keySet());
        }

        @Override
        public void parse(InputStream stream, ContentHandler handler, Metadata metadata, ParseContext context)
                throws IOException, SAXException, TikaException {
            MediaType type = MediaType.parse(metadata.get(Metadata.CONTENT_TYPE));
            Parser parser = type == null ? null : parsers.get(type);
            if (parser == null) {
                throw new TikaException("No parser for " + type);
            }
            long deadline = System.nanoTime()
                    + Duration.ofMillis(Long.parseLong(metadata.get(TIME_LIMIT_MILLIS)))
                            .toNanos();
            BodyContentHandler body = new BodyContentHandler(Integer.parseInt(metadata.get(MAX_CHARS)));
            try {
                // the stream comes over a pipe: buffered here, so that parsers that look ahead (mark/reset) can
                parser.parse(TikaInputStream.get(stream), new Deadline(body, deadline), metadata, context);
            } finally {
                // what the parser wrote goes to the caller once: its limits were kept here, where the parser runs
                char[] text = body.toString().toCharArray();
                if (text.length > 0) {
                    handler.characters(text, 0, text.length);
                }
            }
        }
    }

    /** The text that came back from a parse. */
    static final class Text extends DefaultHandler {

        private final StringBuilder text = new StringBuilder();

        @Override
        public void characters(char[] ch, int start, int length) {
            text.append(ch, start, length);
        }

        @Override
        public void ignorableWhitespace(char[] ch, int start, int length) {
            text.append(ch, start, length);
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }

    /** Stops a parser, at the next thing it writes, once the time is up. */
    private static final class Deadline extends ContentHandlerDecorator {

        private final long deadline;

        Deadline(ContentHandler handler, long deadline) {
            super(handler);
            this.deadline = deadline;
        }

        @Override
        public void startElement(String uri, String localName, String name, Attributes atts) throws SAXException {
            check();
            super.startElement(uri, localName, name, atts);
        }

        @Override
        public void characters(char[] ch, int start, int length) throws SAXException {
            check();
            super.characters(ch, start, length);
        }

        @Override
        public void ignorableWhitespace(char[] ch, int start, int length) throws SAXException {
            check();
            super.ignorableWhitespace(ch, start, length);
        }

        private void check() throws TimeLimitReached {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeLimitReached();
            }
        }
    }

    /** Serialized back from the parser's process: the class must be the same on both sides. */
    static final class TimeLimitReached extends SAXException {

        @Serial
        private static final long serialVersionUID = 1L;

        TimeLimitReached() {
            super("the parse time limit was reached");
        }
    }
}
