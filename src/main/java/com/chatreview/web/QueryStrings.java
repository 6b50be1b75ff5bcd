package com.chatreview.web;

import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Query strings read strictly, as the container reads them for REST: every {@code %} is followed by two hex
 * digits, {@code +} is a space, and the bytes are well-formed UTF-8 (no overlong forms, no encoded surrogates).
 * The WebSocket reads its upgrade's query with it; problem rendering uses it to name the parameters the container
 * could not decode.
 */
public final class QueryStrings {

    /**
     * The request attribute holding the query exactly as sent, where the container was shown another one (a
     * WebSocket upgrade's, {@link UpgradeRequests}).
     */
    static final String SENT_QUERY = QueryStrings.class.getName() + ".sentQuery";

    private QueryStrings() {}

    /** The request's query as the client sent it (still percent-encoded); {@code null} when it sent none. */
    public static String sentQuery(HttpServletRequest request) {
        return request.getAttribute(SENT_QUERY) instanceof String sent ? sent : request.getQueryString();
    }

    /** One {@code name=value} pair of a query; {@code value} is empty for {@code name} alone. */
    public record Parameter(Optional<String> name, Optional<String> value, String rawName) {

        /** Whether name and value both decode. */
        public boolean decodable() {
            return name.isPresent() && value.isPresent();
        }
    }

    /** Every pair of the raw (still percent-encoded) query, in order; {@code null} or blank is none. */
    public static List<Parameter> parse(@Nullable String rawQuery) {
        List<Parameter> parameters = new ArrayList<>();
        if (rawQuery == null || rawQuery.isBlank()) {
            return parameters;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String rawName = equals < 0 ? pair : pair.substring(0, equals);
            String rawValue = equals < 0 ? "" : pair.substring(equals + 1);
            parameters.add(new Parameter(decode(rawName), decode(rawValue), rawName));
        }
        return parameters;
    }

    /**
     * The decodable values of each decodable name, in order; names whose value does not decode map to a list
     * holding {@code null} for that value, so that a caller can tell "sent but undecodable" from "absent".
     */
    public static Map<String, List<String>> values(@Nullable String rawQuery) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        for (Parameter parameter : parse(rawQuery)) {
            parameter
                    .name()
                    .ifPresent(name -> values.computeIfAbsent(name, any -> new ArrayList<>())
                            .add(parameter.value().orElse(null)));
        }
        return values;
    }

    /** The names (as far as they decode, else as sent) of the pairs that do not decode. */
    public static List<String> undecodable(String rawQuery) {
        return parse(rawQuery).stream()
                .filter(parameter -> !parameter.decodable())
                .map(parameter -> parameter.name().orElse(lenient(parameter.rawName())))
                .distinct()
                .toList();
    }

    /** The text the percent-encoded UTF-8 spells, or empty when it spells none. */
    public static Optional<String> decode(String encoded) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%') {
                if (i + 2 >= encoded.length()) {
                    return Optional.empty();
                }
                int high = hex(encoded.charAt(i + 1));
                int low = hex(encoded.charAt(i + 2));
                if (high < 0 || low < 0) {
                    return Optional.empty();
                }
                bytes.write(high * 16 + low);
                i += 2;
            } else if (c == '+') {
                bytes.write(' ');
            } else if (c < 0x80) {
                bytes.write(c);
            } else {
                // a raw non-ASCII character the container let through: its UTF-8 bytes, unless it is half a pair
                int codePoint = encoded.codePointAt(i);
                int length = Character.charCount(codePoint);
                if (Character.isSurrogate(c) && length == 1) {
                    return Optional.empty();
                }
                bytes.writeBytes(encoded.substring(i, i + length).getBytes(StandardCharsets.UTF_8));
                i += length - 1;
            }
        }
        try {
            return Optional.of(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    private static int hex(char c) {
        return c < 0x80 ? Character.digit(c, 16) : -1;
    }

    /** For messages only: the name as sent, at most 64 characters, control characters and half pairs as U+FFFD. */
    private static String lenient(String encoded) {
        StringBuilder shown = new StringBuilder();
        for (int i = 0; i < encoded.length() && shown.length() < 64; i++) {
            char c = encoded.charAt(i);
            shown.append(c < 0x20 || c == 0x7F || Character.isSurrogate(c) ? '\uFFFD' : c);
        }
        return shown.toString();
    }
}
