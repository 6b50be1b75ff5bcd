import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The floor under the service's streaming cost: the barest relay this machine runs, measured by
 * {@code bench/capacity.sh} ({@code LAYOUTS=floor}) with the same load client, provider stand-in and levels as the
 * service, so that the service's CPU per token can be stated as a ratio to it from one run (as the hot reads are to
 * a bare reference server). A reference instrument, not part of the service.
 *
 * <pre>
 *   java bench/RelayFloor.java port=18281 provider=http://127.0.0.1:18290/v1/chat/completions
 * </pre>
 *
 * JDK only, plain blocking sockets on virtual threads (one per student's connection), nothing stored, nothing
 * checked: a WebSocket upgrade answered by hand, each question a POST over a kept-alive connection to the provider,
 * its chunked SSE read line by line, each chunk's {@code content} copied as it is into one text frame
 * ({@code message_stream_token}, the service's event shape), written with one write. What it leaves out of the
 * service's work per token (a sequence number, the event's fields, the fan-out, the buffering for a resume, the
 * metrics) is what the ratio prices; what it shares is what no relay avoids: the provider socket's read, the parse,
 * the frame's write, the virtual thread's park and wake-up.
 *
 * <p>It also answers what the load client asks besides: {@code POST /api/v1/chats} (201, a fresh id, nothing kept)
 * and {@code GET /actuator/health}.
 */
public class RelayFloor {

    static final byte[] CRLF = {'\r', '\n'};

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        int port = Integer.parseInt(options.getOrDefault("port", "18281"));
        URI provider = URI.create(options.getOrDefault("provider", "http://127.0.0.1:18290/v1/chat/completions"));
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress("127.0.0.1", port), 4096);
            while (true) {
                Socket socket = server.accept();
                Thread.ofVirtual().start(() -> serve(socket, provider));
            }
        }
    }

    static void serve(Socket socket, URI provider) {
        try (socket) {
            socket.setTcpNoDelay(true);
            Input in = new Input(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                Request request = Request.read(in);
                if (request == null) {
                    return;
                }
                if ("websocket".equalsIgnoreCase(request.headers.get("upgrade"))) {
                    new Relay(in, out, provider).run(request.headers.get("sec-websocket-key"));
                    return;
                }
                if (request.target.startsWith("/actuator/health")) {
                    respond(out, "200 OK", "{\"status\":\"UP\"}");
                } else if (request.method.equals("POST") && request.target.startsWith("/api/v1/chats")) {
                    respond(out, "201 Created", "{\"id\":\"" + UUID.randomUUID() + "\"}");
                } else {
                    respond(out, "404 Not Found", "{}");
                }
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    static void respond(OutputStream out, String status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                        + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    /** An HTTP/1.1 request's head, its body read (Content-Length only). */
    record Request(String method, String target, Map<String, String> headers) {

        static Request read(Input in) throws IOException {
            String line = in.readLine();
            if (line == null) {
                return null;
            }
            String[] parts = line.split(" ");
            Map<String, String> headers = readHeaders(in);
            int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            in.skip(length);
            return new Request(parts[0], parts[1], headers);
        }
    }

    static Map<String, String> readHeaders(Input in) throws IOException {
        Map<String, String> headers = new HashMap<>();
        for (String line; (line = in.readLine()) != null && !line.isEmpty(); ) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
        }
        return headers;
    }

    /** A socket's bytes through a buffer of its own (no lock per byte, unlike BufferedInputStream's). */
    static final class Input {
        final InputStream in;
        final byte[] buffer = new byte[8192];
        int position, limit;

        Input(InputStream in) {
            this.in = in;
        }

        /** The next byte, or -1 at the end of the stream. */
        int read() throws IOException {
            if (position == limit) {
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return -1;
                }
            }
            return buffer[position++] & 0xff;
        }

        int readByte() throws IOException {
            int b = read();
            if (b < 0) {
                throw new EOFException("the stream ended early");
            }
            return b;
        }

        /** A line without its CRLF (or LF); null at the end of the stream before any byte. */
        String readLine() throws IOException {
            int start = position;
            for (int i = position; i < limit; i++) { // the whole line in the buffer: no copy
                if (buffer[i] == '\n') {
                    position = i + 1;
                    int end = i > start && buffer[i - 1] == '\r' ? i - 1 : i;
                    return new String(buffer, start, end - start, StandardCharsets.UTF_8);
                }
            }
            ByteArrayOutputStream line = new ByteArrayOutputStream(128);
            for (int b; (b = read()) != '\n'; ) {
                if (b < 0) {
                    if (line.size() == 0) {
                        return null;
                    }
                    throw new EOFException("a line cut short");
                }
                if (b != '\r') {
                    line.write(b);
                }
            }
            return line.toString(StandardCharsets.UTF_8);
        }

        /** The next n bytes, to {@code sink} as they are in the buffer. */
        void transfer(int n, Sink sink) throws IOException {
            while (n > 0) {
                if (position == limit && readByteBack() < 0) {
                    throw new EOFException("the stream ended early");
                }
                int take = Math.min(n, limit - position);
                sink.accept(buffer, position, take);
                position += take;
                n -= take;
            }
        }

        byte[] readNBytes(int n) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(n);
            transfer(n, bytes::write);
            return bytes.toByteArray();
        }

        void skip(int n) throws IOException {
            transfer(n, (b, off, len) -> {});
        }

        /** Fills the buffer and puts the byte read back; -1 at the end. */
        private int readByteBack() throws IOException {
            int b = read();
            if (b >= 0) {
                position--;
            }
            return b;
        }
    }

    interface Sink {
        void accept(byte[] bytes, int offset, int length) throws IOException;
    }

    /** One student's WebSocket: each question relayed to the provider, each chunk's content a frame. */
    static final class Relay {

        final Input client;
        final OutputStream toClient;
        final URI provider;
        Socket providerSocket;
        Input fromProvider;
        OutputStream toProvider;

        Relay(Input client, OutputStream toClient, URI provider) {
            this.client = client;
            this.toClient = toClient;
            this.provider = provider;
        }

        void run(String key) throws IOException {
            try {
                byte[] digest = MessageDigest.getInstance("SHA-1")
                        .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII));
                toClient.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                + "Sec-WebSocket-Accept: " + Base64.getEncoder().encodeToString(digest) + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                text("{\"event_type\":\"connection_established\",\"data\":{}}");
                while (true) {
                    int first = client.read();
                    if (first < 0) {
                        return;
                    }
                    int opcode = first & 0x0f;
                    byte[] payload = readPayload();
                    switch (opcode) {
                        case 0x1 -> ask(new String(payload, StandardCharsets.UTF_8));
                        case 0x8 -> {
                            frame(0x8, payload);
                            return;
                        }
                        case 0x9 -> frame(0xA, payload);
                        default -> {}
                    }
                }
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            } finally {
                if (providerSocket != null) {
                    providerSocket.close();
                }
            }
        }

        byte[] readPayload() throws IOException {
            int second = client.readByte();
            long length = second & 0x7f;
            if (length == 126) {
                length = (client.readByte() << 8) | client.readByte();
            } else if (length == 127) {
                length = 0;
                for (int i = 0; i < 8; i++) length = (length << 8) | client.readByte();
            }
            byte[] mask = (second & 0x80) != 0 ? client.readNBytes(4) : null;
            byte[] payload = client.readNBytes((int) length);
            if (mask != null) {
                for (int i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
            }
            return payload;
        }

        /** The question goes to the provider as it came; the answer comes back token by token. */
        void ask(String question) throws IOException {
            if (providerSocket == null) {
                int port = provider.getPort() < 0 ? 80 : provider.getPort();
                providerSocket = new Socket(provider.getHost(), port);
                providerSocket.setTcpNoDelay(true);
                fromProvider = new Input(providerSocket.getInputStream());
                toProvider = providerSocket.getOutputStream();
            }
            byte[] body = ("{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":"
                            + jsonString(question) + "}]}")
                    .getBytes(StandardCharsets.UTF_8);
            toProvider.write(("POST " + provider.getRawPath() + " HTTP/1.1\r\nHost: " + provider.getHost() + ":"
                            + provider.getPort() + "\r\nContent-Type: application/json\r\nAccept: text/event-stream"
                            + "\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            toProvider.write(body);
            toProvider.flush();
            String status = fromProvider.readLine();
            Map<String, String> headers = readHeaders(fromProvider);
            if (status == null || !status.contains(" 200")) {
                throw new IOException("the provider answered " + status);
            }
            text("{\"event_type\":\"message_stream_started\",\"data\":{}}");
            SseLines lines = new SseLines();
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                for (int size; (size = Integer.parseInt(fromProvider.readLine().strip(), 16)) > 0; ) {
                    fromProvider.transfer(size, lines::feed);
                    fromProvider.readLine();
                }
                fromProvider.readLine(); // the empty trailer
            } else {
                fromProvider.transfer(Integer.parseInt(headers.getOrDefault("content-length", "0")), lines::feed);
            }
            text("{\"event_type\":\"message_stream_ended\",\"data\":{}}");
        }

        /** SSE split into lines across chunks; each data line's content becomes a frame at once. */
        final class SseLines {
            final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

            void feed(byte[] bytes, int offset, int length) throws IOException {
                int start = offset;
                for (int i = offset; i < offset + length; i++) {
                    if (bytes[i] == '\n') {
                        line.write(bytes, start, i - start);
                        onLine(line.toString(StandardCharsets.UTF_8));
                        line.reset();
                        start = i + 1;
                    }
                }
                line.write(bytes, start, offset + length - start);
            }

            void onLine(String data) throws IOException {
                if (!data.startsWith("data: {")) {
                    return;
                }
                int start = data.indexOf("\"content\":\"");
                if (start < 0) {
                    return;
                }
                start += "\"content\":\"".length();
                int end = start;
                while (data.charAt(end) != '"') {
                    end += data.charAt(end) == '\\' ? 2 : 1;
                }
                if (end > start) { // the JSON string's escapes are kept as they are: they are the frame's too
                    text("{\"event_type\":\"message_stream_token\",\"data\":{\"token\":\"" + data.substring(start, end)
                            + "\"}}");
                }
            }
        }

        void text(String json) throws IOException {
            frame(0x1, json.getBytes(StandardCharsets.UTF_8));
        }

        /** One unmasked, final frame, written with one write. */
        void frame(int opcode, byte[] payload) throws IOException {
            int head = payload.length < 126 ? 2 : payload.length < 65536 ? 4 : 10;
            byte[] frame = new byte[head + payload.length];
            frame[0] = (byte) (0x80 | opcode);
            if (head == 2) {
                frame[1] = (byte) payload.length;
            } else if (head == 4) {
                frame[1] = 126;
                frame[2] = (byte) (payload.length >> 8);
                frame[3] = (byte) payload.length;
            } else {
                frame[1] = 127;
                for (int i = 0; i < 8; i++) frame[2 + i] = (byte) ((long) payload.length >> (56 - 8 * i));
            }
            System.arraycopy(payload, 0, frame, head, payload.length);
            toClient.write(frame);
        }

        static String jsonString(String text) {
            StringBuilder out = new StringBuilder(text.length() + 2).append('"');
            for (char c : text.toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    default -> {
                        if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                        else out.append(c);
                    }
                }
            }
            return out.append('"').toString();
        }
    }
}
