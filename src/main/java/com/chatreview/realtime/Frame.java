package com.chatreview.realtime;

import com.chatreview.conversation.Question;
import com.chatreview.kernel.StorableText;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client frame: {@code {"content": string, "metadata"?: object, "client_message_id"?: string}}.
 *
 * @param clientMessageId the client's id for exactly-once sends, or {@code null}
 */
record Frame(
        String content,
        Map<String, Object> metadata,
        @Nullable String clientMessageId) {

    static final int MAX_CLIENT_MESSAGE_ID = 128;

    /**
     * Reads frames as the REST bodies are read (decisions: duplicate keys and content after the value are not JSON
     * the service accepts): a frame that names {@code content} twice is refused, not read as whichever came last.
     */
    private static final JsonMapper FRAMES = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** The frame, or why it is not one. */
    static Result parse(String text) {
        JsonNode node;
        try {
            node = FRAMES.readTree(text);
        } catch (JacksonException e) {
            return Result.invalid("The frame is not valid JSON");
        }
        if (node == null || !node.isObject()) {
            return Result.invalid("The frame must be a JSON object");
        }
        JsonNode content = node.get("content");
        if (content == null || !content.isString() || content.asString().isBlank()) {
            return Result.invalid("content must be a non-blank string");
        }
        JsonNode metadata = node.get("metadata");
        if (metadata != null && !metadata.isNull() && !metadata.isObject()) {
            return Result.invalid("metadata must be a JSON object");
        }
        JsonNode clientId = node.get("client_message_id");
        if (clientId != null
                && !clientId.isNull()
                && (!clientId.isString()
                        || clientId.asString().isEmpty()
                        || clientId.asString().length() > MAX_CLIENT_MESSAGE_ID)) {
            return Result.invalid(
                    "client_message_id must be a string of 1 to " + MAX_CLIENT_MESSAGE_ID + " characters");
        }
        if (unstorable(node)) {
            return Result.invalid("The frame holds a NUL character (U+0000) or half of a surrogate pair (a lone"
                    + " \\uD800-\\uDFFF escape), which no message can hold");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> metadataMap =
                metadata == null || metadata.isNull() ? Map.of() : FRAMES.convertValue(metadata, Map.class);
        return new Result(
                Optional.of(new Frame(
                        content.asString(),
                        metadataMap,
                        clientId == null || clientId.isNull() ? null : clientId.asString())),
                null);
    }

    /**
     * Whether any string or property name of the tree holds U+0000, which PostgreSQL text and jsonb refuse, or half
     * of a surrogate pair, which no UTF-8 can carry (the driver would store it as {@code ?}).
     */
    private static boolean unstorable(JsonNode node) {
        if (node.isString()) {
            return !StorableText.storable(node.asString());
        }
        return node.propertyNames().stream().anyMatch(name -> !StorableText.storable(name))
                || node.values().stream().anyMatch(Frame::unstorable);
    }

    /** The frame as the question it asks. */
    Question question() {
        return new Question(content, metadata, clientMessageId);
    }

    record Result(Optional<Frame> frame, @Nullable String problem) {
        static Result invalid(String problem) {
            return new Result(Optional.empty(), problem);
        }
    }
}
