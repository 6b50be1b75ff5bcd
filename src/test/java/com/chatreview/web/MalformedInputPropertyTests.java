package com.chatreview.web;

import static com.chatreview.web.MalformedInputs.anyLong;
import static com.chatreview.web.MalformedInputs.between;
import static com.chatreview.web.MalformedInputs.chance;
import static com.chatreview.web.MalformedInputs.key;
import static com.chatreview.web.MalformedInputs.lit;
import static com.chatreview.web.MalformedInputs.pick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.RawHttp;
import com.chatreview.support.RawHttp.Answer;
import com.chatreview.support.RawHttp.Bytes;
import com.chatreview.support.ServiceProcess;
import com.chatreview.web.MalformedInputs.Arr;
import com.chatreview.web.MalformedInputs.Json;
import com.chatreview.web.MalformedInputs.Member;
import com.chatreview.web.MalformedInputs.Obj;
import com.chatreview.web.MalformedInputs.Odd;
import com.chatreview.web.MalformedInputs.Part;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import tools.jackson.databind.JsonNode;

/**
 * Issue 17, steps (a) and (b): no malformed request gets a 5xx or a dropped connection. Property-based
 * (quicktheories): against the real service in a JVM of its own ({@link ServiceProcess}), with the rate limits and
 * the failed-authentication budget raised and a valid key, so that every request reaches its handler. The
 * endpoints come from the service's own {@code /v3/api-docs}; for each, requests with invalid percent-encoding,
 * overlong UTF-8, encoded lone surrogates, control characters, NUL, huge and negative numbers, duplicate
 * parameters, JSON with lone surrogates, duplicate keys, wrong types and deep nesting, odd content types and odd
 * multipart parts go over a raw socket (the JDK's client refuses to send most of them). Each must be answered (no
 * reset, no end of stream), never 5xx, never 401 or 429, every 4xx a problem body with {@code code} and {@code fix},
 * every answer with {@code X-Request-Id}; then {@code GET /actuator/health} on the same connection must be answered
 * too, or, when the answer said {@code Connection: close}, the connection must end cleanly. Most requests are odd in
 * one place (path, query, headers or body) and plain elsewhere, so that the odd part reaches the code that reads it;
 * some are odd everywhere. Likewise WebSocket upgrades with odd {@code api_key},
 * {@code user_id}, {@code chat_id} (an {@code error} event, then 4401 or 4404, never 1011) and odd frames
 * ({@code INVALID_MESSAGE}, the connection stays open; a text frame that is not UTF-8 may be closed 1007).
 *
 * <p>The seed comes from {@code -Dmalformed.seed} or the clock and is printed first (and by quicktheories with a
 * falsified property); {@code -Dmalformed.examples} sets the examples per endpoint. Not an {@code
 * *IntegrationTests} class: it brings its own service and database, so it runs once.
 */
@Tag("process")
class MalformedInputPropertyTests {

    static final long SEED = Long.getLong("malformed.seed", System.nanoTime());
    /**
     * Per endpoint and per WebSocket property: about 3,500 cases in all, new ones every run (the seed is the clock's);
     * the suite's share of two busy cores is about a minute. {@code -Dmalformed.examples=1000} for a deeper run.
     */
    static final int EXAMPLES = Integer.getInteger("malformed.examples", 120);

    static final int SHRINK_CYCLES = Integer.getInteger("malformed.shrinks", 30);
    static final String USER = "student-1";
    /** The user a DELETE of a user erases (the chats above are all {@link #USER}'s). */
    static final String DOOMED_USER = "student-doomed";
    /** The service's {@code server.max-http-request-header-size}: a longer request line and headers is 414 or 431. */
    static final int MAX_REQUEST_HEAD = 16 * 1024;

    static ServiceProcess service;
    static int port;
    static Fixture fixture;
    static List<Endpoint> endpoints;
    static long started;
    static final Tallies tallies = new Tallies();

    @BeforeAll
    static void startTheService() throws Exception {
        started = System.nanoTime();
        System.out.println("MalformedInputPropertyTests seed: " + SEED + " (replay: -Dmalformed.seed=" + SEED + ")");
        service = new ServiceProcess(
                "malformed-input",
                Map.of(
                        "RATE_LIMIT_REST_PER_MINUTE",
                        "1000000",
                        "RATE_LIMIT_WS_MESSAGES_PER_SECOND",
                        "1000000",
                        "LIMIT_WS_CONNECTIONS_PER_TENANT",
                        "100000",
                        "LIMIT_WS_LINK_CONNECTIONS_PER_CHAT",
                        "100000",
                        // the failed-authentication budget per address (RateLimitSettings.authFailuresPerMinute)
                        // and the chat page's history requests per chat (ChatUiSettings.pageRequestsPerMinute)
                        "SPRING_APPLICATION_JSON",
                        "{\"rate-limit\": {\"auth-failures-per-minute\": 1000000},"
                                + " \"chat-ui\": {\"page-requests-per-minute\": 1000000}}",
                        "ASSISTANT_OFFLINETOKENDELAY",
                        "0ms",
                        "REVIEW_CONCURRENCY",
                        "1"));
        service.start();
        port = service.port();
        fixture = Fixture.create(new Api(port));
        endpoints = Endpoint.all(new Api(port).get("/v3/api-docs").json());
        System.out.println("Started and prepared in "
                + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms; " + endpoints.size()
                + " endpoints in /v3/api-docs");
    }

    @AfterAll
    static void stopTheService() throws IOException {
        FrameChannel.closeAll();
        System.out.println(tallies.report(Duration.ofNanos(System.nanoTime() - started)));
        if (service != null) {
            service.close();
        }
    }

    // ---- REST ----------------------------------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> everyMalformedRequestIsAnsweredWithAProblemAndTheConnectionCarriesTheNextRequest() {
        // the cases come from the service's own description: an empty or shrunken one would test nothing and pass
        assertThat(endpoints.stream().map(endpoint -> endpoint.method().toUpperCase() + " " + endpoint.path()))
                .as("the endpoints of /v3/api-docs")
                .contains(
                        "POST /api/v1/chats",
                        "GET /api/v1/chats/{chat_id}/messages",
                        "PATCH /api/v1/chats/{chat_id}",
                        "POST /v1/homeworks",
                        "POST /v1/homeworks/{homeworkId}/submissions",
                        "PATCH /v1/homeworks/{homeworkId}/submissions/{submissionId}",
                        "POST /api/v1/webhooks",
                        "POST /admin/v1/tenants");
        return endpoints.stream()
                .map(endpoint -> DynamicTest.dynamicTest(
                        endpoint.toString(), () -> property(restCases(endpoint), MalformedInputPropertyTests::check)));
    }

    /** One request, exactly as it goes over the wire, and what about it is odd. */
    record RestCase(String operation, byte[] head, byte @Nullable [] body, List<String> odd) {

        byte[] bytes() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(head);
            if (body != null) {
                out.writeBytes(body);
            }
            return out.toByteArray();
        }

        @Override
        public String toString() {
            return operation + " odd=" + odd + "\n" + Bytes.shown(head, 6000) + "\n"
                    + (body == null ? "" : Bytes.shown(body, 1500));
        }
    }

    static void check(RestCase request) {
        Answer answer;
        boolean followedUp = false;
        try (RawHttp connection = RawHttp.open(port)) {
            connection.send(request.bytes());
            answer = connection.read();
            assertAnswer(answer, request.operation());
            if (answer.closes()) {
                assertThat(connection.endedByServer())
                        .as("the connection ends after an answer that says Connection: close: %s", answer)
                        .isTrue();
            } else {
                connection.send(("GET /actuator/health HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                Answer health = connection.read();
                assertThat(health.status())
                        .as("the next request on the same connection: %s", health)
                        .isEqualTo(200);
                followedUp = true;
            }
        } catch (IOException e) {
            throw new AssertionError("No answer (" + e + ") to\n" + request, e);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nfor\n" + request, e);
        }
        tallies.rest(request, answer, followedUp);
    }

    /** What every answer must be, whatever was asked. */
    static void assertAnswer(Answer answer, String operation) {
        assertThat(answer.status()).as("status of %s: %s", operation, answer).isLessThan(500);
        assertThat(answer.status()).as("the key was valid: %s", answer).isNotIn(401, 429);
        assertThat(answer.header("X-Request-Id")).as("X-Request-Id: %s", answer).isNotBlank();
        if (answer.status() >= 400) {
            assertThat(answer.header("Content-Type"))
                    .as("a 4xx is a problem body: %s", answer)
                    .startsWith("application/problem+json");
            JsonNode problem = Api.JSON.readTree(decoded(answer));
            assertThat(problem.path("code").asString("")).as("code: %s", answer).isNotBlank();
            assertThat(problem.path("fix").asString("")).as("fix: %s", answer).isNotBlank();
        }
    }

    private static byte[] decoded(Answer answer) {
        if (!"gzip".equalsIgnoreCase(answer.header("Content-Encoding"))) {
            return answer.body();
        }
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(answer.body()))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Where a request is odd. Mostly in one place, the rest of it plain, so that the odd part reaches what reads it
     * (a path the container refuses would hide an odd body); now and then everywhere at once.
     */
    record Focus(boolean path, boolean query, boolean headers, boolean body, boolean method) {

        static Focus of(RandomnessSource in) {
            int focus = between(in, 0, 4);
            if (focus < 4) {
                return new Focus(focus == 0, focus == 1, focus == 2, focus == 3, false);
            }
            return new Focus(chance(in, 50), chance(in, 50), chance(in, 50), chance(in, 50), chance(in, 15));
        }
    }

    static Gen<RestCase> restCases(Endpoint endpoint) {
        return in -> {
            Focus focus = Focus.of(in);
            List<String> odd = new ArrayList<>();
            String method = endpoint.method();
            if (focus.method()) {
                method = pick(in, List.of("GET", "POST", "PUT", "PATCH", "DELETE"));
                odd.add("method " + method);
            }
            String target = path(in, endpoint, focus.path(), odd) + query(in, endpoint, focus.query(), odd);
            String host = "127.0.0.1:" + port;
            if (focus.headers() && chance(in, 15)) {
                host = pick(in, MalformedInputs.HOSTS);
                odd.add("host " + Bytes.shown(host, 30));
            }
            StringBuilder head = new StringBuilder(method)
                    .append(' ')
                    .append(target)
                    .append(" HTTP/1.1\r\nHost: ")
                    .append(host)
                    .append("\r\n");
            if (endpoint.securityHeader() != null) {
                head.append(endpoint.securityHeader())
                        .append(": ")
                        .append(fixture.credential(endpoint))
                        .append("\r\n");
            }
            for (Endpoint.Param header : endpoint.headerParams()) {
                if (chance(in, 50)) {
                    boolean oddValue = focus.headers() && chance(in, 50);
                    String value = oddValue
                            ? pick(in, MalformedInputs.HEADER_VALUES).raw()
                            : "key-" + between(in, 0, 1_000_000);
                    head.append(header.name()).append(": ").append(value).append("\r\n");
                    odd.add("header " + header.name() + (oddValue ? " odd" : ""));
                }
            }
            if (focus.headers()) {
                for (String[] header : MalformedInputs.oddHeaders(in, List.of())) {
                    head.append(header[0]).append(": ").append(header[1]).append("\r\n");
                    odd.add("header " + header[0]);
                }
            }
            byte[] body = body(in, endpoint, focus.body(), head, odd);
            if (body != null) {
                if (chance(in, 10)) {
                    head.append("Transfer-Encoding: chunked\r\n");
                    body = chunked(body);
                    odd.add("chunked");
                } else {
                    head.append("Content-Length: ").append(body.length).append("\r\n");
                }
                if (chance(in, 5)) {
                    head.append("Expect: 100-continue\r\n");
                    odd.add("expect-continue");
                }
            }
            head.append("\r\n");
            return new RestCase(
                    endpoint.toString(), head.toString().getBytes(StandardCharsets.ISO_8859_1), body, List.copyOf(odd));
        };
    }

    /** The path: ids real or random, or (when it is the odd part) odd. */
    private static String path(RandomnessSource in, Endpoint endpoint, boolean oddly, List<String> odd) {
        String path = endpoint.path();
        for (Endpoint.Param parameter : endpoint.pathParams()) {
            String value;
            int choice = between(in, 0, oddly ? 3 : 1);
            if (choice == 0) {
                value = fixture.realId(parameter.name(), endpoint.method());
            } else if (choice == 1) {
                value = new java.util.UUID(anyLong(in), anyLong(in)).toString();
            } else {
                Odd piece = MalformedInputs.oddPiece(in);
                value = piece.raw();
                odd.add("path " + parameter.name() + " " + piece.kind());
            }
            path = path.replace("{" + parameter.name() + "}", value);
        }
        return path;
    }

    /** The query: declared parameters plain or absent, or (when it is the odd part) odd, repeated, unknown. */
    private static String query(RandomnessSource in, Endpoint endpoint, boolean oddly, List<String> odd) {
        List<String> pairs = new ArrayList<>();
        for (Endpoint.Param parameter : endpoint.queryParams()) {
            int choice = between(in, 0, oddly ? 3 : 1);
            if (choice == 1) {
                pairs.add(parameter.name() + "=" + fixture.plainValue(parameter));
            } else if (choice >= 2) {
                Odd piece = MalformedInputs.oddPiece(in);
                pairs.add(parameter.name() + "=" + piece.raw());
                odd.add("query " + parameter.name() + " " + piece.kind());
                if (chance(in, 25)) {
                    pairs.add(parameter.name() + "=" + fixture.plainValue(parameter));
                    odd.add("duplicate " + parameter.name());
                }
            }
        }
        if (oddly && chance(in, 25)) {
            Odd name = MalformedInputs.oddPiece(in);
            Odd value = MalformedInputs.oddPiece(in);
            pairs.add(chance(in, 30) ? name.raw() : "x" + name.raw() + "=" + value.raw());
            odd.add("query unknown " + name.kind() + "/" + value.kind());
        }
        if (oddly && chance(in, 5)) {
            pairs.add(pick(in, List.of("&", "=", "==", "&&=&", "=x", "x==y")));
            odd.add("query structure");
        }
        if (pairs.isEmpty()) {
            return "";
        }
        java.util.Collections.shuffle(pairs, new java.util.Random(anyLong(in)));
        return "?" + String.join("&", pairs);
    }

    /**
     * A body for an endpoint that takes one, with its Content-Type, well-formed unless it is the odd part; now and
     * then one for an endpoint that takes none.
     */
    private static byte @Nullable [] body(
            RandomnessSource in, Endpoint endpoint, boolean oddly, StringBuilder head, List<String> odd) {
        if (endpoint.bodyTypes().isEmpty()) {
            if (!oddly || !chance(in, 30)) {
                return null;
            }
            odd.add("unexpected body");
            head.append("Content-Type: application/json\r\n");
            return "{\"a\": 1}".getBytes(StandardCharsets.UTF_8);
        }
        String declared = endpoint.bodyTypes().getFirst();
        boolean multipart = declared.startsWith("multipart/");
        String contentType = multipart ? "multipart/form-data; boundary=" + MalformedInputs.BOUNDARY : declared;
        if (oddly && chance(in, 25)) {
            contentType = pick(in, MalformedInputs.ODD_CONTENT_TYPES);
            odd.add("content-type " + (contentType == null ? "none" : Bytes.shown(contentType, 60)));
        }
        if (contentType != null) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        return multipart ? multipartBody(in, oddly, odd) : jsonBody(in, endpoint, oddly, odd);
    }

    private static byte[] jsonBody(RandomnessSource in, Endpoint endpoint, boolean oddly, List<String> odd) {
        if (oddly && chance(in, 12)) {
            Odd whole = pick(in, MalformedInputs.ODD_BODIES);
            odd.add("body " + whole.kind());
            return whole.raw().getBytes(StandardCharsets.ISO_8859_1);
        }
        Obj root = fixture.example(endpoint.bodySchema());
        int mutations = oddly ? between(in, 1, 2) : 0;
        for (int i = 0; i < mutations; i++) {
            odd.add("json " + MalformedInputs.mutate(in, root));
        }
        byte[] bytes = MalformedInputs.bytes(root);
        if (oddly && chance(in, 4)) {
            odd.add("json as UTF-16");
            return new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_16LE);
        }
        return bytes;
    }

    private static byte[] multipartBody(RandomnessSource in, boolean oddly, List<String> odd) {
        List<Part> parts = new ArrayList<>();
        Part student = MalformedInputs.Part.field("studentId", USER);
        Odd content = oddly && chance(in, 20)
                ? pick(in, MalformedInputs.FILE_CONTENTS)
                : MalformedInputs.FILE_CONTENTS.getFirst();
        Part file = MalformedInputs.Part.file(
                "files", "main.py", "text/x-python", content.raw().getBytes(StandardCharsets.ISO_8859_1));
        if (!content.kind().equals("plain")) {
            odd.add("file content " + content.kind());
        }
        parts.add(student);
        parts.add(file);
        int mutations = oddly ? between(in, 1, 2) : 0;
        for (int i = 0; i < mutations; i++) {
            odd.add("multipart " + mutatePart(in, parts));
        }
        String boundary = MalformedInputs.BOUNDARY;
        String lineEnd = "\r\n";
        boolean closed = true;
        if (oddly && chance(in, 8)) {
            int structure = between(in, 0, 3);
            switch (structure) {
                case 0 -> closed = false;
                case 1 -> boundary = "another-boundary";
                case 2 -> lineEnd = "\n";
                default -> parts.add(new Part(new ArrayList<>(List.of("no colon here")), new byte[0]));
            }
            odd.add("multipart structure " + structure);
        }
        return MalformedInputs.multipart(parts, boundary, lineEnd, closed);
    }

    /** Breaks the upload's parts: a field sent as a file, odd part headers, odd values, parts missing or repeated. */
    private static String mutatePart(RandomnessSource in, List<Part> parts) {
        int kind = between(in, 0, 8);
        Part target = parts.isEmpty() ? null : pick(in, parts);
        return switch (kind) {
            case 0 -> {
                parts.replaceAll(part -> part.headers().getFirst().contains("name=\"studentId\"")
                        ? MalformedInputs.Part.file("studentId", "id.txt", "text/plain", part.content())
                        : part);
                yield "studentId as a file part";
            }
            case 1 -> {
                Odd name = pick(in, MalformedInputs.FILE_NAMES);
                parts.add(MalformedInputs.Part.file(
                        "files", name.raw(), "text/x-python", "print(1)\n".getBytes(StandardCharsets.UTF_8)));
                yield "file name " + name;
            }
            case 2 -> {
                Odd type = pick(in, MalformedInputs.PART_CONTENT_TYPES);
                parts.add(MalformedInputs.Part.file(
                        "files", "other.py", type.raw(), "print(2)\n".getBytes(StandardCharsets.UTF_8)));
                yield "part content type " + type;
            }
            case 3 -> {
                String header = pick(
                        in,
                        List.of(
                                "Content-Transfer-Encoding: base64",
                                "Content-Disposition: attachment; filename=\"x.py\"",
                                "Content-Disposition: form-data; filename*=UTF-8''%FF%FE.py; name=\"files\"",
                                "Content-Disposition: form-data; name=files; filename=unquoted.py",
                                "Content-Length: 99999",
                                "Content-Type: text/plain; charset=\u00FF",
                                "X-Odd: \u0000\u0001",
                                ": no name",
                                "Content-Disposition: form-data",
                                "Content-Disposition: form-data; name=\"\u00FF\u00FE\""));
                if (target != null) {
                    target.headers().add(header);
                }
                yield "part header " + Bytes.shown(header, 60);
            }
            case 4 -> {
                Odd value = MalformedInputs.oddPiece(in);
                parts.replaceAll(part -> part.headers().getFirst().contains("name=\"studentId\"")
                        ? MalformedInputs.Part.field("studentId", "")
                                .withContent(value.raw().getBytes(StandardCharsets.ISO_8859_1))
                        : part);
                yield "studentId " + value.kind();
            }
            case 5 -> {
                String missing = pick(in, List.of("\"studentId\"", "\"files\""));
                parts.removeIf(part -> part.headers().getFirst().contains("name=" + missing));
                yield "a part missing";
            }
            case 6 -> {
                if (target != null) {
                    parts.add(target);
                }
                yield "a part repeated";
            }
            case 7 -> {
                parts.replaceAll(part -> part.headers().getFirst().contains("filename=")
                        ? MalformedInputs.Part.field("files", new String(part.content(), StandardCharsets.ISO_8859_1))
                        : part);
                yield "files sent as fields";
            }
            default -> {
                for (int i = 0; i < 11; i++) {
                    parts.add(MalformedInputs.Part.file(
                            "files", "f" + i + ".py", "text/x-python", "x = 1\n".getBytes(StandardCharsets.UTF_8)));
                }
                yield "too many files";
            }
        };
    }

    private static byte[] chunked(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int chunk = Math.max(1, body.length / 3 + 1);
        for (int from = 0; from < body.length; from += chunk) {
            int length = Math.min(chunk, body.length - from);
            out.writeBytes((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body, from, length);
            out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    // ---- WebSocket upgrades --------------------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> everyOddUpgradeIsAnErrorEventThenItsCloseCodeNever1011() {
        return Stream.of("/ws/chat", "/ws/chat-ui")
                .map(path -> DynamicTest.dynamicTest(
                        "upgrade " + path,
                        () -> property(upgradeCases(path), MalformedInputPropertyTests::checkUpgrade)));
    }

    /**
     * A handshake with odd values; {@code mayBeAdmitted} when every odd value could still be a good one (a
     * {@code user_id} is any text, an odd {@code resume_from} is ignored).
     */
    record UpgradeCase(String path, byte[] head, boolean mayBeAdmitted, List<String> odd) {
        @Override
        public String toString() {
            return path + " odd=" + odd + " mayBeAdmitted=" + mayBeAdmitted + "\n" + Bytes.shown(head, 6000);
        }
    }

    static Gen<UpgradeCase> upgradeCases(String path) {
        return in -> {
            boolean chatPage = path.equals("/ws/chat-ui");
            List<String> names = chatPage
                    ? List.of("chat_id", "token", "resume_from")
                    : List.of("api_key", "user_id", "chat_id", "resume_from");
            List<String> odd = new ArrayList<>();
            List<String> pairs = new ArrayList<>();
            StringBuilder headers = new StringBuilder();
            boolean mayBeAdmitted = true;
            for (String name : names) {
                String plain = fixture.upgradeValue(name);
                int choice = between(in, 0, 3);
                if (choice <= 1) {
                    if (plain != null) {
                        pairs.add(name + "=" + URLEncoder.encode(plain, StandardCharsets.UTF_8));
                    }
                    continue;
                }
                Odd piece = MalformedInputs.oddPiece(in);
                boolean asHeader = choice == 3 && !name.equals("token") && !name.equals("resume_from");
                if (asHeader) {
                    Odd value = pick(in, MalformedInputs.HEADER_VALUES);
                    headers.append(headerOf(name))
                            .append(": ")
                            .append(value.raw())
                            .append("\r\n");
                    odd.add("header " + headerOf(name) + " " + value.kind());
                } else {
                    pairs.add(name + "=" + piece.raw());
                    odd.add(name + " " + piece.kind());
                    if (chance(in, 15)) {
                        pairs.add(name + "=" + URLEncoder.encode(String.valueOf(plain), StandardCharsets.UTF_8));
                        odd.add("duplicate " + name);
                    }
                }
                if (name.equals("api_key") || name.equals("chat_id")) {
                    mayBeAdmitted = false;
                }
            }
            if (chance(in, 15)) {
                Odd extra = MalformedInputs.oddPiece(in);
                pairs.add("x" + extra.raw() + "=" + extra.raw());
                odd.add("unknown " + extra.kind());
            }
            if (chance(in, 15)) {
                String header = pick(
                        in,
                        List.of(
                                "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=99",
                                "Sec-WebSocket-Extensions: bogus, permessage-deflate; x=\u00FF",
                                "Sec-WebSocket-Protocol: chat, , \u00FF",
                                "Origin: null",
                                "Origin: https://\u00FF.example",
                                "Origin: not a url"));
                headers.append(header).append("\r\n");
                odd.add("header " + Bytes.shown(header, 40));
            }
            String target = path + (pairs.isEmpty() ? "" : "?" + String.join("&", pairs));
            String head = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + RawHttp.upgradeHeaders()
                    + headers + "\r\n";
            return new UpgradeCase(path, head.getBytes(StandardCharsets.ISO_8859_1), mayBeAdmitted, List.copyOf(odd));
        };
    }

    private static String headerOf(String parameter) {
        return switch (parameter) {
            case "api_key" -> "X-API-Key";
            case "user_id" -> "X-User-ID";
            default -> "X-Chat-ID";
        };
    }

    static void checkUpgrade(UpgradeCase upgrade) {
        String outcome;
        try (RawHttp connection = RawHttp.open(port)) {
            connection.send(upgrade.head());
            Answer answer = connection.read();
            if (answer.status() != 101) {
                // only a request the HTTP parser refuses (raw bytes, over the header size) may be answered before it
                assertThat(onlyUriCharacters(upgrade.head()) && upgrade.head().length <= MAX_REQUEST_HEAD)
                        .as("the upgrade always succeeds (docs/api.md, The WebSocket): %s", answer)
                        .isFalse();
                assertAnswer(answer, upgrade.path());
                tallies.upgrade(upgrade, "HTTP " + answer.status());
                return;
            }
            RawHttp.Frame first = connection.readFrame();
            assertThat(first.opcode())
                    .as("the first frame is an event, not %s", first)
                    .isEqualTo(RawHttp.TEXT);
            JsonNode event = Api.JSON.readTree(first.payload());
            String type = event.path("event_type").asString("");
            if (type.equals("connection_established")) {
                assertThat(upgrade.mayBeAdmitted())
                        .as("admitted with an odd api_key or chat_id: %s", first)
                        .isTrue();
                closeCleanly(connection);
                outcome = "admitted";
            } else {
                assertThat(type).as("an error event: %s", first).isEqualTo("error");
                String code = event.path("error_code").asString("");
                assertThat(code).as("error_code: %s", first).isIn("AUTH_ERROR", "CHAT_NOT_FOUND");
                assertThat(event.path("details").path("fix").asString(""))
                        .as("details.fix: %s", first)
                        .isNotBlank();
                RawHttp.Frame close = connection.readFrame();
                assertThat(close.opcode()).as("then the close: %s", close).isEqualTo(RawHttp.CLOSE);
                assertThat(close.closeCode())
                        .as("the close code of %s: %s", code, close)
                        .isEqualTo(code.equals("AUTH_ERROR") ? 4401 : 4404);
                outcome = code + " " + close.closeCode();
            }
        } catch (IOException e) {
            throw new AssertionError("No answer (" + e + ") to\n" + upgrade, e);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nfor\n" + upgrade, e);
        }
        tallies.upgrade(upgrade, outcome);
    }

    /** Whether the request line holds only what a URI may (so that the HTTP parser has no reason to refuse it). */
    private static boolean onlyUriCharacters(byte[] head) {
        String text = new String(head, StandardCharsets.ISO_8859_1);
        String requestLine = text.substring(0, text.indexOf("\r\n"));
        String target = requestLine.substring(requestLine.indexOf(' ') + 1, requestLine.lastIndexOf(' '));
        return target.chars().allMatch(c -> c > 0x20 && c < 0x7F && "\"<>\\^`{|}[]#".indexOf(c) < 0)
                && !text.substring(text.indexOf("\r\n"))
                        .chars()
                        .anyMatch(c -> c >= 0x7F || (c < 0x20 && c != '\r' && c != '\n' && c != '\t'));
    }

    private static void closeCleanly(RawHttp connection) throws IOException {
        connection.sendFrame(RawHttp.CLOSE, new byte[] {0x03, (byte) 0xE8});
        for (int i = 0; i < 50; i++) {
            RawHttp.Frame frame = connection.readFrame();
            if (frame.opcode() == RawHttp.CLOSE) {
                return;
            }
        }
    }

    // ---- WebSocket frames ----------------------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> everyOddFrameIsInvalidMessageOnAConnectionThatStaysOpen() {
        return Stream.of("/ws/chat", "/ws/chat-ui")
                .map(path -> DynamicTest.dynamicTest(
                        "frames on " + path,
                        () -> property(frameCases(path), MalformedInputPropertyTests::checkFrame)));
    }

    /** What a frame must get. */
    enum Expect {
        /** {@code INVALID_MESSAGE}, the connection open. */
        INVALID,
        /** Answered like any message: received, streamed, ended. */
        VALID,
        /** Either of those (a message that is odd but may be stored: a huge number in its metadata). */
        EITHER,
        /** Not UTF-8 text: {@code INVALID_MESSAGE}, or closed 1007 by the WebSocket layer (RFC 6455). */
        INVALID_OR_1007
    }

    /** A frame; {@code fragmented}: sent in two fragments with a ping between them. */
    record FrameCase(String path, int opcode, byte[] payload, boolean fragmented, Expect expect, List<String> odd) {
        @Override
        public String toString() {
            return path + " " + (opcode == RawHttp.TEXT ? "text" : "binary") + (fragmented ? " in two fragments" : "")
                    + " expect " + expect + " odd=" + odd + "\n" + Bytes.shown(payload, 1500);
        }
    }

    static Gen<FrameCase> frameCases(String path) {
        return in -> {
            if (chance(in, 4)) {
                return new FrameCase(
                        path,
                        RawHttp.BINARY,
                        "{\"content\": \"hi\"}".getBytes(StandardCharsets.UTF_8),
                        chance(in, 15),
                        Expect.INVALID,
                        List.of("binary"));
            }
            if (chance(in, 3)) {
                byte[] large = ("{\"content\": \"" + "x".repeat(between(in, 65_530, 200_000)) + "\"}")
                        .getBytes(StandardCharsets.UTF_8);
                return new FrameCase(
                        path, RawHttp.TEXT, large, chance(in, 15), FrameRules.expect(large), List.of("over 64 KiB"));
            }
            if (chance(in, 10)) {
                Odd whole = pick(in, MalformedInputs.ODD_BODIES);
                byte[] bytes = whole.raw().getBytes(StandardCharsets.ISO_8859_1);
                return new FrameCase(
                        path,
                        RawHttp.TEXT,
                        bytes,
                        chance(in, 15),
                        FrameRules.expect(bytes),
                        List.of("frame " + whole.kind()));
            }
            List<Member> members = new ArrayList<>();
            members.add(new Member(key("content"), lit("\"hello " + between(in, 0, 1_000_000) + "\"")));
            if (chance(in, 50)) {
                members.add(new Member(
                        key("metadata"), new Obj(new ArrayList<>(List.of(new Member(key("k"), lit("\"v\"")))))));
            }
            if (chance(in, 20)) {
                members.add(new Member(key("client_message_id"), lit("\"cm-" + between(in, 0, 1_000_000) + "\"")));
            }
            Obj frame = new Obj(members);
            List<String> odd = new ArrayList<>();
            int mutations = between(in, 1, 2);
            for (int i = 0; i < mutations; i++) {
                odd.add(MalformedInputs.mutate(in, frame));
            }
            byte[] bytes = MalformedInputs.bytes(frame);
            return new FrameCase(path, RawHttp.TEXT, bytes, chance(in, 15), FrameRules.expect(bytes), List.copyOf(odd));
        };
    }

    /**
     * The test's own model of docs/api.md, The WebSocket for a client frame, read strictly: a JSON object (no duplicate keys,
     * nothing after it) whose {@code content} is a non-blank string, {@code metadata} absent, null or an object,
     * {@code client_message_id} absent, null or 1 to 128 characters, and no text anywhere (value or key) holding
     * U+0000 or half a surrogate pair, which no message can store. What the model cannot settle (a number no
     * double holds, nesting deeper than a parser may allow) may go either way.
     */
    static final class FrameRules {

        private static final tools.jackson.databind.json.JsonMapper STRICT =
                tools.jackson.databind.json.JsonMapper.builder()
                        .enable(tools.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                        .enable(tools.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                        .enable(tools.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                        .build();

        static Expect expect(byte[] payload) {
            if (!utf8(payload)) {
                return Expect.INVALID_OR_1007;
            }
            if (payload.length > 64 * 1024) {
                return Expect.INVALID;
            }
            JsonNode node;
            try {
                node = STRICT.readTree(payload);
            } catch (tools.jackson.core.exc.StreamConstraintsException e) {
                return Expect.EITHER;
            } catch (tools.jackson.core.JacksonException e) {
                return Expect.INVALID;
            } catch (NumberFormatException beyondBigDecimal) {
                return Expect.EITHER; // 1E+2147483648: even the model's parser gives up on it
            }
            if (node == null || !node.isObject()) {
                return Expect.INVALID;
            }
            JsonNode content = node.get("content");
            if (content == null || !content.isString() || content.asString().isBlank()) {
                return Expect.INVALID;
            }
            JsonNode metadata = node.get("metadata");
            if (metadata != null && !metadata.isNull() && !metadata.isObject()) {
                return Expect.INVALID;
            }
            JsonNode clientId = node.get("client_message_id");
            if (clientId != null
                    && !clientId.isNull()
                    && (!clientId.isString()
                            || clientId.asString().isEmpty()
                            || clientId.asString().length() > 128)) {
                return Expect.INVALID;
            }
            if (unstorable(node)) {
                return Expect.INVALID;
            }
            return beyondDouble(node) || depth(node) > 200 ? Expect.EITHER : Expect.VALID;
        }

        /** The frame's client_message_id, as a frame the model finds valid holds it; else {@code null}. */
        private static boolean unstorable(JsonNode node) {
            if (node.isString()) {
                return unstorable(node.asString());
            }
            return node.propertyNames().stream().anyMatch(FrameRules::unstorable)
                    || node.values().stream().anyMatch(FrameRules::unstorable);
        }

        private static boolean unstorable(String text) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '\u0000') {
                    return true;
                }
                if (Character.isHighSurrogate(c)) {
                    if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                        return true;
                    }
                    i++;
                } else if (Character.isLowSurrogate(c)) {
                    return true;
                }
            }
            return false;
        }

        private static boolean beyondDouble(JsonNode node) {
            if (node.isBigInteger()) {
                return node.bigIntegerValue().bitLength() > 63;
            }
            if (node.isNumber() && node.isFloatingPointNumber()) {
                try {
                    java.math.BigDecimal exact = node.decimalValue();
                    double value = exact.doubleValue();
                    return Double.isInfinite(value) || (value == 0 && exact.signum() != 0);
                } catch (RuntimeException beyondBigDecimal) {
                    return true;
                }
            }
            return node.values().stream().anyMatch(FrameRules::beyondDouble);
        }

        private static int depth(JsonNode node) {
            return 1 + node.values().stream().mapToInt(FrameRules::depth).max().orElse(0);
        }
    }

    private static boolean utf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes));
            return true;
        } catch (java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }

    static void checkFrame(FrameCase frame) {
        String outcome;
        try {
            FrameChannel channel = FrameChannel.of(frame.path());
            outcome = channel.exchange(frame);
        } catch (IOException e) {
            FrameChannel.drop(frame.path());
            throw new AssertionError("No answer (" + e + ") to\n" + frame, e);
        } catch (AssertionError e) {
            FrameChannel.drop(frame.path());
            throw new AssertionError(e.getMessage() + "\nfor\n" + frame, e);
        }
        tallies.frame(frame, outcome);
    }

    /** One open connection per path, used frame after frame, opened again when a frame ended it. */
    static final class FrameChannel {

        private static final Map<String, FrameChannel> OPEN = new ConcurrentHashMap<>();
        private final RawHttp connection;
        private final AtomicInteger pings = new AtomicInteger();
        /** The client_message_ids stored on each path's chat: a repeat is acknowledged, not answered again. */
        private static final Map<String, Set<String>> STORED = new ConcurrentHashMap<>();

        private FrameChannel(RawHttp connection) {
            this.connection = connection;
        }

        static FrameChannel of(String path) throws IOException {
            FrameChannel open = OPEN.get(path);
            if (open == null) {
                open = new FrameChannel(connect(path));
                OPEN.put(path, open);
            }
            return open;
        }

        static void drop(String path) {
            FrameChannel channel = OPEN.remove(path);
            if (channel != null) {
                channel.connection.close();
            }
        }

        static void closeAll() {
            Set.copyOf(OPEN.keySet()).forEach(FrameChannel::drop);
        }

        private static RawHttp connect(String path) throws IOException {
            String query = path.equals("/ws/chat-ui")
                    ? "chat_id=" + fixture.pageFrameChatId()
                    : "api_key=" + URLEncoder.encode(fixture.apiKey(), StandardCharsets.UTF_8) + "&user_id=" + USER
                            + "&chat_id=" + fixture.frameChatId();
            RawHttp connection = RawHttp.open(port);
            connection.send(("GET " + path + "?" + query + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                            + RawHttp.upgradeHeaders() + "\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            Answer answer = connection.read();
            assertThat(answer.status()).as("upgrade: %s", answer).isEqualTo(101);
            JsonNode established = Api.JSON.readTree(connection.readFrame().payload());
            assertThat(established.path("event_type").asString(""))
                    .as("a good connection: %s", established)
                    .isEqualTo("connection_established");
            return connection;
        }

        /** Sends the frame and reads what it gets, then a ping's pong proves the connection open. */
        String exchange(FrameCase frame) throws IOException {
            if (frame.fragmented()) {
                connection.sendFragmented(frame.opcode(), frame.payload());
            } else {
                connection.sendFrame(frame.opcode(), frame.payload());
            }
            String outcome = null;
            boolean streaming = false;
            while (outcome == null || streaming) {
                RawHttp.Frame answer = connection.readFrame();
                if (answer.opcode() == RawHttp.PING || answer.opcode() == RawHttp.PONG) {
                    continue;
                }
                if (answer.opcode() == RawHttp.CLOSE) {
                    assertThat(frame.expect() == Expect.INVALID_OR_1007 && answer.closeCode() == 1007)
                            .as("closed by %s", answer)
                            .isTrue();
                    drop(frame.path());
                    return "closed 1007";
                }
                JsonNode event = Api.JSON.readTree(answer.payload());
                String type = event.path("event_type").asString("");
                if (type.equals("user_created")) {
                    continue;
                }
                if (type.equals("error")) {
                    assertThat(streaming).as("an error mid-reply: %s", answer).isFalse();
                    assertThat(event.path("error_code").asString(""))
                            .as("%s", answer)
                            .isEqualTo("INVALID_MESSAGE");
                    assertThat(frame.expect()).as("refused: %s", answer).isNotEqualTo(Expect.VALID);
                    outcome = "INVALID_MESSAGE";
                } else if (type.equals("message_received")) {
                    assertThat(frame.expect())
                            .as("stored a frame that is not a message: %s", answer)
                            .isIn(Expect.VALID, Expect.EITHER);
                    // the id as the service read it: a repeat is acknowledged, not answered again (the test's own
                    // reading of the frame may differ on a number no double holds, and then mistake a repeat)
                    String clientId = event.path("client_message_id").asString(null);
                    streaming = clientId == null
                            || STORED.computeIfAbsent(frame.path(), any -> ConcurrentHashMap.newKeySet())
                                    .add(clientId);
                    outcome = streaming ? "answered" : "acknowledged as a repeat";
                } else if (type.equals("message_stream_ended")) {
                    streaming = false;
                } else {
                    assertThat(type)
                            .as("an event of the reply: %s", answer)
                            .isIn("message_stream_started", "message_stream_token");
                }
            }
            byte[] ping = ("p" + pings.incrementAndGet()).getBytes(StandardCharsets.US_ASCII);
            connection.sendFrame(RawHttp.PING, ping);
            while (true) {
                RawHttp.Frame answer = connection.readFrame();
                if (answer.opcode() == RawHttp.PONG && java.util.Arrays.equals(answer.payload(), ping)) {
                    return outcome;
                }
                assertThat(answer.opcode())
                        .as("the connection stays open after %s: %s", outcome, answer)
                        .isNotEqualTo(RawHttp.CLOSE);
            }
        }
    }

    // ---- the run -------------------------------------------------------------------------------------------------

    /** Runs the property with the seed; a falsified one is reported with the seed to replay it. */
    static <T> void property(Gen<T> cases, java.util.function.Consumer<T> check) {
        try {
            qt().withFixedSeed(SEED)
                    .withExamples(EXAMPLES)
                    .withShrinkCycles(SHRINK_CYCLES)
                    .withGenerateAttempts(EXAMPLES * 10)
                    .forAll(cases)
                    .checkAssert(check);
        } catch (AssertionError e) {
            throw new AssertionError("[replay with -Dmalformed.seed=" + SEED + "] " + e.getMessage(), e);
        }
    }

    /** The service's endpoints as its OpenAPI document describes them. */
    record Endpoint(
            String method,
            String path,
            List<Param> pathParams,
            List<Param> queryParams,
            List<Param> headerParams,
            List<String> bodyTypes,
            @Nullable JsonNode bodySchema,
            @Nullable String securityHeader) {

        record Param(String name, String type) {}

        static List<Endpoint> all(JsonNode document) {
            Map<String, String> schemes = new LinkedHashMap<>();
            document.path("components")
                    .path("securitySchemes")
                    .properties()
                    .forEach(scheme -> schemes.put(
                            scheme.getKey(), scheme.getValue().path("name").asString()));
            JsonNode schemas = document.path("components").path("schemas");
            List<Endpoint> endpoints = new ArrayList<>();
            new TreeMap<>(document.path("paths").properties().stream()
                            .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)))
                    .forEach((path, operations) -> operations.properties().forEach(operation -> {
                        JsonNode op = operation.getValue();
                        List<Param> inPath = new ArrayList<>();
                        List<Param> inQuery = new ArrayList<>();
                        List<Param> inHeader = new ArrayList<>();
                        for (JsonNode parameter : op.path("parameters")) {
                            Param param = new Param(
                                    parameter.path("name").asString(),
                                    parameter.path("schema").path("type").asString("string"));
                            switch (parameter.path("in").asString()) {
                                case "path" -> inPath.add(param);
                                case "query" -> inQuery.add(param);
                                case "header" -> inHeader.add(param);
                                default -> {}
                            }
                        }
                        List<String> bodyTypes = new ArrayList<>();
                        JsonNode schema = null;
                        for (Map.Entry<String, JsonNode> content :
                                op.path("requestBody").path("content").properties()) {
                            bodyTypes.add(content.getKey());
                            schema = resolve(content.getValue().path("schema"), schemas);
                        }
                        String security = null;
                        for (JsonNode requirement : op.path("security")) {
                            Iterator<String> names = requirement.propertyNames().iterator();
                            if (names.hasNext()) {
                                security = schemes.get(names.next());
                            }
                        }
                        endpoints.add(new Endpoint(
                                operation.getKey().toUpperCase(Locale.ROOT),
                                path,
                                inPath,
                                inQuery,
                                inHeader,
                                bodyTypes,
                                schema,
                                security));
                    }));
            return endpoints;
        }

        /** The schema with every {@code $ref} replaced by what it names (the document has no cycles). */
        static JsonNode resolve(JsonNode schema, JsonNode schemas) {
            if (schema.has("$ref")) {
                String name = schema.get("$ref").asString().substring("#/components/schemas/".length());
                return resolve(schemas.path(name), schemas);
            }
            if (!schema.isObject()) {
                return schema;
            }
            tools.jackson.databind.node.ObjectNode copy = (tools.jackson.databind.node.ObjectNode) schema.deepCopy();
            schema.properties().forEach(field -> copy.set(field.getKey(), resolve(field.getValue(), schemas)));
            return copy;
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /**
     * What the requests need to reach a handler: a tenant and its key, and real records (a chat, a course, a
     * homework, a submission) to put in paths. Settings that change what other requests get (the chat page's
     * settings, the usage limits, the admin API's tenant with its budget) act on a sandbox tenant of their own; a
     * DELETE's real chat, or user, is one to lose.
     */
    record Fixture(
            String apiKey,
            String sandboxKey,
            String sandboxTenantId,
            String chatId,
            String doomedChatId,
            String upgradeChatId,
            String frameChatId,
            String pageFrameChatId,
            String courseId,
            String homeworkId,
            String submissionId) {

        static Fixture create(Api anonymous) {
            Api admin = anonymous.with("X-Admin-Token", ServiceProcess.ADMIN_TOKEN);
            JsonNode tenant = created(admin.post("/admin/v1/tenants", "{\"name\": \"malformed\"}"));
            JsonNode sandbox = created(admin.post("/admin/v1/tenants", "{\"name\": \"malformed-sandbox\"}"));
            String key = tenant.get("api_key").asString();
            Api chats = anonymous.with("X-API-Key", key);
            Api homework = anonymous.with("x-tenant-api-secret", key);
            String chat = newChat(chats);
            String course = created(homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Algebra\"}"))
                    .get("id")
                    .asString();
            String homeworkId = created(homework.post("/v1/homeworks", """
                            {"teacherId": "t-1", "courseId": "%s", "assignmentId": "fractions-1",
                             "files": [{"fileType": "task", "fileName": "task.md", "content": "Add 1/2 and 1/3."}]}""".formatted(course)))
                    .get("id")
                    .asString();
            String submission = created(homework.upload(
                            "/v1/homeworks/" + homeworkId + "/submissions",
                            new Multipart().field("studentId", USER).file("main.py", "print(5 / 6)\n")))
                    .get("id")
                    .asString();
            created(chats.post("/api/v1/chats", "{\"user_id\": \"" + DOOMED_USER + "\"}"));
            return new Fixture(
                    key,
                    sandbox.get("api_key").asString(),
                    sandbox.get("id").asString(),
                    chat,
                    newChat(chats),
                    newChat(chats),
                    newChat(chats),
                    newChat(chats),
                    course,
                    homeworkId,
                    submission);
        }

        private static String newChat(Api chats) {
            return created(chats.post("/api/v1/chats", "{\"user_id\": \"" + USER + "\"}"))
                    .get("id")
                    .asString();
        }

        private static JsonNode created(Api.Reply reply) {
            assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
            return reply.json();
        }

        /** The credential of a secured endpoint's header. */
        String credential(Endpoint endpoint) {
            if (Objects.requireNonNull(endpoint.securityHeader(), "a secured endpoint")
                    .equals("X-Admin-Token")) {
                return ServiceProcess.ADMIN_TOKEN;
            }
            // the chat page's settings and the usage limits change what the other requests get
            return endpoint.path().contains("/settings") || endpoint.path().endsWith("/usage/limits")
                    ? sandboxKey
                    : apiKey;
        }

        /** A real id for a path parameter of this name (for DELETE: the chat, or the user, to lose). */
        String realId(String name, String method) {
            return switch (name) {
                case "chat_id" -> method.equals("DELETE") ? doomedChatId : chatId;
                case "homeworkId" -> homeworkId;
                case "submissionId" -> submissionId;
                case "tenantId" -> sandboxTenantId;
                // erasing the user would take every chat above with it
                case "user_id" -> method.equals("DELETE") ? DOOMED_USER : USER;
                default -> "00000000-0000-0000-0000-000000000000";
            };
        }

        String plainValue(Endpoint.Param parameter) {
            return switch (parameter.name()) {
                case "limit" -> "10";
                case "offset" -> "0";
                case "order" -> "desc";
                case "teacherId" -> "t-1";
                case "courseId" -> courseId;
                case "studentId" -> USER;
                case "search" -> "fractions";
                case "before" -> "5";
                default -> parameter.type().equals("integer") ? "1" : "x";
            };
        }

        @Nullable
        String upgradeValue(String name) {
            return switch (name) {
                case "api_key" -> apiKey;
                case "user_id" -> USER;
                case "chat_id" -> upgradeChatId;
                default -> null;
            };
        }

        /** A well-formed body of the schema, with real ids where a field names one. */
        Obj example(@Nullable JsonNode schema) {
            Json value = exampleOf("", schema == null ? Api.JSON.createObjectNode() : schema);
            return value instanceof Obj obj ? obj : new Obj(new ArrayList<>());
        }

        private Json exampleOf(String name, JsonNode schema) {
            String type = schema.path("type").asString("object");
            if (schema.has("enum")) {
                return lit("\"" + schema.get("enum").get(0).asString() + "\"");
            }
            return switch (type) {
                case "object" -> {
                    List<Member> members = new ArrayList<>();
                    schema.path("properties")
                            .properties()
                            .forEach(property -> members.add(new Member(
                                    key(property.getKey()), exampleOf(property.getKey(), property.getValue()))));
                    if (members.isEmpty() && schema.has("additionalProperties")) {
                        members.add(new Member(key("course"), lit("\"algebra\"")));
                    }
                    yield new Obj(members);
                }
                case "array" -> new Arr(new ArrayList<>(List.of(exampleOf(name, schema.path("items")))));
                case "integer", "number" -> lit(name.equals("ttl_seconds") ? "600" : "1");
                case "boolean" -> lit("false");
                default -> lit("\"" + stringFor(name) + "\"");
            };
        }

        private String stringFor(String name) {
            return switch (name) {
                case "courseId" -> courseId;
                case "teacherId" -> "t-1";
                case "user_id" -> USER;
                case "studentId" -> USER;
                case "fileType" -> "task";
                case "fileName" -> "task.md";
                case "content" -> "Add 1/2 and 1/3.";
                case "assignmentId" -> "fractions-2";
                case "frame_ancestors", "allowed_origins" -> "https://school.example";
                default -> "x";
            };
        }
    }

    /** What the run saw, printed at its end: cases, answers by status, and which odd kinds got which. */
    static final class Tallies {
        private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

        void rest(RestCase request, Answer answer, boolean followedUp) {
            count("rest cases");
            count("rest status " + answer.status());
            if (!followedUp) {
                count("rest answers with Connection: close");
                count("rest Connection: close after " + answer.status());
            }
            for (String odd : request.odd()) {
                count("rest " + kindOf(odd) + " -> " + answer.status() / 100 + "xx");
            }
        }

        void upgrade(UpgradeCase upgrade, String outcome) {
            count("upgrade cases");
            count("upgrade " + upgrade.path() + " -> " + outcome);
        }

        void frame(FrameCase frame, String outcome) {
            count("frame cases");
            count("frame " + frame.path() + " " + frame.expect() + " -> " + outcome);
        }

        private static String kindOf(String odd) {
            return odd.replaceAll("\\s+\\S*[:=].*$", "").replaceAll("(key|file|body)-\\d+", "$1");
        }

        private void count(String what) {
            counts.computeIfAbsent(what, any -> new LongAdder()).increment();
        }

        String report(Duration took) {
            StringBuilder report = new StringBuilder(
                    "MalformedInputPropertyTests seed " + SEED + ", " + took.toSeconds() + " s in all:\n");
            new TreeMap<>(counts)
                    .forEach((what, count) -> report.append("  ")
                            .append(what)
                            .append(": ")
                            .append(count.sum())
                            .append('\n'));
            return report.toString();
        }
    }
}
