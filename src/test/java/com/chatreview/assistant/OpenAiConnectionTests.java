package com.chatreview.assistant;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The openai provider's client: HTTP/2 where TLS can negotiate it, HTTP/1.1 over plain http (no h2c upgrade, which
 * local servers such as Ollama may not take); requests to {@code <base>/chat/completions}, with a bearer key only when
 * one is set, and messages that may quote the provider never show the key.
 */
class OpenAiConnectionTests {

    @Test
    void asksForHttp2OverHttpsAndHttp11OverHttp() {
        try (OpenAiConnection secure = connection("https://api.example/v1", "sk-secret");
                OpenAiConnection local = connection("http://127.0.0.1:11434/v1/", null)) {
            assertThat(secure.http().version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(local.http().version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        }
    }

    @Test
    void postsToTheCompletionsOfTheBaseUrlWithTheKeyOnlyWhenThereIsOne() {
        try (OpenAiConnection secure = connection("https://api.example/v1", " sk-secret ");
                OpenAiConnection local = connection("http://127.0.0.1:11434/v1/", null)) {
            HttpRequest withKey = secure.request("{}");
            assertThat(withKey.uri()).isEqualTo(URI.create("https://api.example/v1/chat/completions"));
            assertThat(withKey.method()).isEqualTo("POST");
            assertThat(withKey.headers().firstValue("Authorization")).hasValue("Bearer sk-secret");
            assertThat(withKey.headers().firstValue("Accept")).hasValue("text/event-stream");

            HttpRequest withoutKey = local.request("{}");
            assertThat(withoutKey.uri()).isEqualTo(URI.create("http://127.0.0.1:11434/v1/chat/completions"));
            assertThat(withoutKey.headers().firstValue("Authorization")).isEmpty();

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
