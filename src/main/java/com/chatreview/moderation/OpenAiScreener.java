package com.chatreview.moderation;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code openai} provider (docs/safety.md, Providers): the configured OpenAI-compatible endpoint's
 * {@code POST /moderations}, its categories mapped onto the service's, together with the offline screener's (which
 * alone knows contact details, and catches what a model may let pass). When the endpoint does not answer in time or
 * answers what cannot be read, the message is screened offline alone, and the screening says so: a student is never
 * kept waiting for a screening, nor left unscreened.
 */
final class OpenAiScreener implements SafetyScreener {

    private static final Logger log = LoggerFactory.getLogger(OpenAiScreener.class);

    /** The endpoint's category names, as OpenAI's moderation model gives them, and what each is here. */
    private static final Map<String, SafetyCategory> CATEGORIES = Map.ofEntries(
            Map.entry("self-harm", SafetyCategory.SELF_HARM),
            Map.entry("self-harm/intent", SafetyCategory.SELF_HARM),
            Map.entry("self-harm/instructions", SafetyCategory.SELF_HARM),
            Map.entry("violence", SafetyCategory.VIOLENCE),
            Map.entry("violence/graphic", SafetyCategory.VIOLENCE),
            Map.entry("harassment/threatening", SafetyCategory.VIOLENCE),
            Map.entry("hate/threatening", SafetyCategory.VIOLENCE),
            Map.entry("sexual/minors", SafetyCategory.SEXUAL_MINORS),
            Map.entry("harassment", SafetyCategory.HARASSMENT),
            Map.entry("hate", SafetyCategory.HARASSMENT));

    private final SafetyScreener offline;
    private final HttpClient http;
    private final URI moderations;
    private final @Nullable String apiKey;
    private final String model;
    private final Duration timeout;
    private final JsonMapper json;

    OpenAiScreener(
            SafetyScreener offline,
            String baseUrl,
            @Nullable String apiKey,
            String model,
            Duration timeout,
            JsonMapper json) {
        this.offline = offline;
        this.moderations = URI.create(baseUrl.replaceAll("/+$", "") + "/moderations");
        this.apiKey = apiKey;
        this.model = model;
        this.timeout = timeout;
        this.json = json;
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public Screening screen(String text) {
        Screening rules = offline.screen(text);
        Set<SafetyCategory> seen;
        try {
            seen = ask(text);
        } catch (IOException | RuntimeException unavailable) {
            log.warn(
                    "The moderation endpoint did not answer ({}); the message was screened offline",
                    unavailable.toString());
            return Screening.of(rules.categories(), "offline").fellBack("openai");
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return Screening.of(rules.categories(), "offline").fellBack("openai");
        }
        Set<SafetyCategory> both = EnumSet.noneOf(SafetyCategory.class);
        both.addAll(seen);
        both.addAll(rules.categories());
        return Screening.of(both, "openai");
    }

    private Set<SafetyCategory> ask(String text) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(moderations)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        json.writeValueAsString(Map.of("model", model, "input", text))));
        if (apiKey != null && !apiKey.isBlank()) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("status " + response.statusCode());
        }
        JsonNode result = json.readTree(response.body()).path("results").path(0);
        JsonNode categories = result.path("categories");
        if (!categories.isObject()) {
            throw new IOException("no results[0].categories in the answer");
        }
        Set<SafetyCategory> found = EnumSet.noneOf(SafetyCategory.class);
        CATEGORIES.forEach((name, category) -> {
            if (categories.path(name).asBoolean(false)) {
                found.add(category);
            }
        });
        return found;
    }
}
