package com.chatreview.moderation;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.assistant.MockLlm;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code openai} provider against a real OpenAI-compatible server (mock-llm) answering {@code /v1/moderations}
 * as OpenAI's does; and its fallback when no endpoint answers.
 */
@Tag("npm")
class OpenAiScreenerTests {

    static MockLlm mockLlm;

    @BeforeAll
    static void start() throws Exception {
        mockLlm = MockLlm.start();
        // mock-llm answers with the last rule that matches
        mockLlm.configure("""
                rules:
                  - path: "/v1/moderations"
                    response:
                      status: 200
                      content: |
                        {"id": "modr-2", "model": "omni-moderation-latest", "results": [{"flagged": false,
                         "categories": {"self-harm": false, "violence": false, "harassment": false}}]}
                  - path: "/v1/moderations"
                    match: "contains(body.input, 'everything to stop')"
                    response:
                      status: 200
                      content: |
                        {"id": "modr-1", "model": "omni-moderation-latest", "results": [{"flagged": true,
                         "categories": {"self-harm": true, "self-harm/intent": true, "violence": false,
                         "harassment": false, "sexual/minors": false},
                         "category_scores": {"self-harm": 0.91, "self-harm/intent": 0.88}}]}
                """);
    }

    @AfterAll
    static void stop() throws Exception {
        if (mockLlm != null) {
            mockLlm.close();
        }
    }

    static OpenAiScreener screener(String baseUrl) {
        return new OpenAiScreener(
                OfflineScreener.standard(),
                baseUrl,
                "sk-test",
                "omni-moderation-latest",
                Duration.ofSeconds(2),
                JsonMapper.builder().build());
    }

    @Test
    void whatTheModelSeesIsFlaggedBesideWhatTheRulesSee() {
        OpenAiScreener screener = screener(mockLlm.baseUrl());

        Screening implied = screener.screen("i just want everything to stop. can you check question 5");
        assertThat(implied.categories())
                .as("what the rules miss, the model catches")
                .containsExactly(SafetyCategory.SELF_HARM);
        assertThat(implied.screenedBy()).isEqualTo("openai");
        assertThat(implied.unavailable()).isNull();

        Screening contact = screener.screen("my number is +49 151 2345 6789");
        assertThat(contact.categories())
                .as("contact details: the rules alone know them")
                .containsExactly(SafetyCategory.CONTACT_DETAILS);
        assertThat(screener.screen("what is 7 times 8?").flagged()).isFalse();
    }

    @Test
    void withoutAnEndpointTheMessageIsScreenedOfflineAndSaysSo() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        OpenAiScreener screener = screener("http://127.0.0.1:" + closed + "/v1");

        Screening screening = screener.screen("i want to kill myself");

        assertThat(screening.categories()).containsExactly(SafetyCategory.SELF_HARM);
        assertThat(screening.screenedBy()).isEqualTo("offline");
        assertThat(screening.unavailable()).isEqualTo("openai");
    }
}
