package com.chatreview.assistant;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which AI answers, and how.
 *
 * @param provider {@code offline} (in-process, deterministic, no network) or {@code openai} ({@code AI_PROVIDER})
 * @param baseUrl the OpenAI-compatible endpoint, ending in {@code /v1} ({@code AI_BASE_URL})
 * @param apiKey its key ({@code AI_API_KEY})
 * @param model the model to ask for ({@code AI_MODEL})
 * @param connectTimeout how long to wait for the endpoint to accept the connection
 * @param firstTokenTimeout how long to wait for the first piece of the reply
 * @param idleTimeout how long the stream may stay silent between two pieces
 * @param historyTokens how much of the chat's history (estimated tokens) goes with each request
 * @param reviewFormat how the openai provider asks for a review's structure ({@code AI_REVIEW_FORMAT}): as a JSON
 *     schema the endpoint enforces ({@code json_schema}, strict structured outputs), or, for an endpoint without
 *     them, as JSON mode ({@code json_object}); the answer is validated the same way in both
 * @param offlineTokenDelay the offline provider's pause between words (zero in tests and benchmarks)
 */
@ConfigurationProperties("assistant")
public record AssistantSettings(
        @DefaultValue("offline") String provider,
        @Nullable String baseUrl,
        @Nullable String apiKey,
        @Nullable String model,
        @DefaultValue("5s") Duration connectTimeout,
        @DefaultValue("30s") Duration firstTokenTimeout,
        @DefaultValue("30s") Duration idleTimeout,
        @DefaultValue("6000") int historyTokens,
        @DefaultValue("json_schema") ReviewFormat reviewFormat,
        @DefaultValue("15ms") Duration offlineTokenDelay) {

    /** The {@code response_format} of a review request. */
    public enum ReviewFormat {
        /** {@code {"type": "json_schema", "json_schema": {..., "strict": true}}}: endpoints with structured outputs. */
        JSON_SCHEMA,
        /** {@code {"type": "json_object"}}: any JSON object; the service checks its shape. */
        JSON_OBJECT
    }
}
