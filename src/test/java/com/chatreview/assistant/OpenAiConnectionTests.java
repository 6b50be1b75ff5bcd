package com.chatreview.assistant;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The openai provider's client: requests to {@code <base>/chat/completions}, asking for an event stream, with a bearer
 * key only when one is set, and messages that may quote the provider never show the key.
 */
class OpenAiConnectionTests {

    @Test
    void postsToTheCompletionsOfTheBaseUrlWithTheKeyOnlyWhenThereIsOne() {
        try (OpenAiConnection secure = connection("https://api.example/v1", " sk-secret ");
                OpenAiConnection local = connection("http://127.0.0.1:11434/v1/", null)) {
            Request withKey = secure.request("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(withKey.getURI()).isEqualTo(URI.create("https://api.example/v1/chat/completions"));
            assertThat(withKey.getMethod()).isEqualTo("POST");
            assertThat(withKey.getHeaders().get(HttpHeader.AUTHORIZATION)).isEqualTo("Bearer sk-secret");
            assertThat(withKey.getHeaders().get(HttpHeader.ACCEPT)).isEqualTo("text/event-stream");
            assertThat(withKey.getBody().getContentType()).startsWith("application/json");

            Request withoutKey = local.request("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(withoutKey.getURI()).isEqualTo(URI.create("http://127.0.0.1:11434/v1/chat/completions"));
            assertThat(withoutKey.getHeaders().get(HttpHeader.AUTHORIZATION)).isNull();

            assertThat(secure.redact("the provider said: bad key sk-secret"))
                    .isEqualTo("the provider said: bad key [AI_API_KEY]");
        }
    }

    private static OpenAiConnection connection(String baseUrl, @Nullable String apiKey) {
        return new OpenAiConnection(new AssistantSettings(
                "openai",
                baseUrl,
                apiKey,
                "gpt-4o-mini",
                Duration.ofSeconds(5),
                Duration.ofSeconds(30),
                Duration.ofSeconds(30),
                6000,
                AssistantSettings.ReviewFormat.JSON_SCHEMA,
                Duration.ofMillis(15)));
    }
}
