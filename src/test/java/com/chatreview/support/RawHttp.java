package com.chatreview.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 and WebSocket over a plain socket, written and read by hand, for tests that send what no well-behaved
 * client would: a request target that is not a valid URI, bytes that are not UTF-8, a body that does not match its
 * {@code Content-Type}. The JDK's clients refuse to send such requests; the service has to answer them anyway. A
 * reset, an end of stream before a whole answer, or no answer in time is an {@link IOException}.
 */
public final class RawHttp implements AutoCloseable {

    public static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawHttp(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    public static RawHttp open(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
        socket.setTcpNoDelay(true);
        return new RawHttp(socket);
    }

    /** Sends the bytes as they are. */
    public void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads one answer, past any interim {@code 1xx} but {@code 101 Switching Protocols}. */
    public Answer read() throws IOException {
        while (true) {
            String statusLine = line();
            if (statusLine == null) {
                throw new EOFException("the connection ended before a status line");
            }
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("\\d{3}")) {
                throw new IOException("not a status line: " + Bytes.shown(statusLine, 200));
            }
            int status = Integer.parseInt(parts[1]);
            Map<String, List<String>> headers = headers();
            if (status >= 100 && status < 200 && status != 101) {
                continue;
            }
            return new Answer(status, statusLine, headers, body(status, headers));
        }
    }

    /** Whether the server ended the connection (cleanly) within a short wait, with nothing more to read. */
    public boolean endedByServer() throws IOException {
        int before = socket.getSoTimeout();
        socket.setSoTimeout(2_000);
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } finally {
            socket.setSoTimeout(before);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing left to do with it
        }
    }

    /** One HTTP answer; header names lower-case. */
    public record Answer(int status, String statusLine, Map<String, List<String>> headers, byte[] body) {

        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.getFirst();
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** Whether the server said it ends the connection after this answer. */
        public boolean closes() {
            String connection = header("Connection");
            return connection != null && connection.toLowerCase(Locale.ROOT).contains("close");
        }

        @Override
        public String toString() {
            return statusLine + " " + headers + " " + Bytes.shown(text(), 600);
        }
    }

    // ---- WebSocket ----------------------------------------------------------------------------------------------

    public static final int TEXT = 0x1;
    public static final int BINARY = 0x2;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;

    /** The handshake's own headers, with a fresh {@code Sec-WebSocket-Key}. */
    public static String upgradeHeaders() {
        byte[] key = new byte[16];
        RANDOM.nextBytes(key);
        return "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
                + Base64.getEncoder().encodeToString(key) + "\r\n";
    }

    /** Sends one whole client frame, masked as RFC 6455 requires of clients. */
    public void sendFrame(int opcode, byte[] payload) throws IOException {
        send(frame(true, opcode, payload));
    }

    /** Sends a message in two fragments (the second a continuation), with a ping between them. */
    public void sendFragmented(int opcode, byte[] payload) throws IOException {
        int half = payload.length / 2;
        send(frame(false, opcode, java.util.Arrays.copyOfRange(payload, 0, half)));
        send(frame(true, PING, new byte[] {'f'}));
        send(frame(true, 0x0, java.util.Arrays.copyOfRange(payload, half, payload.length)));
    }

    private static byte[] frame(boolean last, int opcode, byte[] payload) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
        frame.write((last ? 0x80 : 0) | opcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length < 65_536) {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length & 0xFF);
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) ((long) payload.length >>> shift) & 0xFF);
            }
        }
        byte[] mask = new byte[4];
        RANDOM.nextBytes(mask);
        frame.writeBytes(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i % 4]);
        }
        return frame.toByteArray();
    }

    /** Inflates messages compressed by a negotiated permessage-deflate (RSV1 set on their first frame). */
    private final java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);

    /** Reads one whole server frame (server frames are not masked); fragments are joined. */
    public Frame readFrame() throws IOException {
        int opcode = -1;
        boolean compressed = false;
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        while (true) {
            int first = readByte();
            int second = readByte();
            long length = second & 0x7F;
            if (length == 126) {
                length = (readByte() << 8) | readByte();
            } else if (length == 127) {
                length = 0;
                for (int i = 0; i < 8; i++) {
                    length = (length << 8) | readByte();
                }
            }
            byte[] mask = (second & 0x80) != 0 ? in.readNBytes(4) : null;
            byte[] part = in.readNBytes((int) length);
            if (part.length < length) {
                throw new EOFException("the connection ended inside a frame");
            }
            if (mask != null) {
                for (int i = 0; i < part.length; i++) {
                    part[i] ^= mask[i % 4];
                }
            }
            int frameOpcode = first & 0x0F;
            if (frameOpcode >= CLOSE) {
                return new Frame(frameOpcode, part); // control frames may come between fragments
            }
            if (opcode < 0) {
                opcode = frameOpcode;
                compressed = (first & 0x40) != 0;
            }
            payload.writeBytes(part);
            if ((first & 0x80) != 0) {
                return new Frame(opcode, compressed ? inflate(payload.toByteArray()) : payload.toByteArray());
            }
        }
    }

    private byte[] inflate(byte[] compressed) throws IOException {
        byte[] input = java.util.Arrays.copyOf(compressed, compressed.length + 4);
        input[input.length - 2] = (byte) 0xFF;
        input[input.length - 1] = (byte) 0xFF;
        inflater.setInput(input);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n = inflater.inflate(buffer); n > 0; n = inflater.inflate(buffer)) {
                out.write(buffer, 0, n);
            }
        } catch (java.util.zip.DataFormatException e) {
            throw new IOException("a compressed message that does not inflate", e);
        }
        return out.toByteArray();
    }

    /** A server frame. */
    public record Frame(int opcode, byte[] payload) {

        public String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }

        /** The close code of a close frame; 1005 (none given) when it holds none. */
        public int closeCode() {
            return payload.length < 2 ? 1005 : ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
        }

        @Override
        public String toString() {
            return switch (opcode) {
                case TEXT -> "text " + Bytes.shown(text(), 400);
                case CLOSE ->
                    "close " + closeCode() + " " + Bytes.shown(text().substring(Math.min(2, text().length())), 100);
                case PING -> "ping";
                case PONG -> "pong";
                default -> "opcode " + opcode + " (" + payload.length + " bytes)";
            };
        }
    }

    // ---- reading ------------------------------------------------------------------------------------------------

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("the connection ended");
        }
        return b;
    }

    /** A line ended by CRLF (or LF), as ISO-8859-1; {@code null} at the end of the stream before any byte. */
    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (line.size() == 0) {
                    return null;
                }
                throw new EOFException("the connection ended inside a line");
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
    }

    private Map<String, List<String>> headers() throws IOException {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String line = line(); line != null && !line.isEmpty(); line = line()) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(
                                line.substring(0, colon).strip().toLowerCase(Locale.ROOT), any -> new ArrayList<>())
                        .add(line.substring(colon + 1).strip());
            }
        }
        return headers;
    }

    private byte[] body(int status, Map<String, List<String>> headers) throws IOException {
        if (status == 101 || status == 204 || status == 304) {
            return new byte[0];
        }
        List<String> encoding = headers.get("transfer-encoding");
        if (encoding != null && encoding.getLast().toLowerCase(Locale.ROOT).contains("chunked")) {
            return chunked();
        }
        List<String> length = headers.get("content-length");
        if (length != null) {
            int size = Integer.parseInt(length.getFirst());
            byte[] body = in.readNBytes(size);
            if (body.length < size) {
                throw new EOFException("the connection ended inside the body");
            }
            return body;
        }
        return in.readAllBytes();
    }

    private byte[] chunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line();
            if (sizeLine == null) {
                throw new EOFException("the connection ended inside a chunked body");
            }
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip(), 16);
            if (size == 0) {
                headers(); // trailers
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length < size) {
                throw new EOFException("the connection ended inside a chunk");
            }
            body.writeBytes(chunk);
            line();
        }
    }

    /** Bytes and text shown in messages: printable ASCII as it is, everything else escaped. */
    public static final class Bytes {

        private Bytes() {}

        public static String shown(byte[] bytes, int max) {
            StringBuilder shown = new StringBuilder();
            for (int i = 0; i < bytes.length && shown.length() < max; i++) {
                int b = bytes[i] & 0xFF;
                if (b >= 0x20 && b < 0x7F && b != '\\') {
                    shown.append((char) b);
                } else if (b == '\\') {
                    shown.append("\\\\");
                } else {
                    shown.append(String.format("\\x%02X", b));
                }
            }
            return bytes.length > 0 && shown.length() >= max
                    ? shown + "…(" + bytes.length + " bytes)"
                    : shown.toString();
        }

        public static String shown(String text, int max) {
            StringBuilder shown = new StringBuilder();
            for (int i = 0; i < text.length() && shown.length() < max; i++) {
                char c = text.charAt(i);
                if (c >= 0x20 && c < 0x7F) {
                    shown.append(c);
                } else {
                    shown.append(String.format("\\u%04X", (int) c));
                }
            }
            return shown.length() >= max ? shown + "…" : shown.toString();
        }
    }
}
