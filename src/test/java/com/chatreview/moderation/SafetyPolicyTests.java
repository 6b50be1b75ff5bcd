package com.chatreview.moderation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class SafetyPolicyTests {

    final SafetyPolicy policy = new SafetyPolicy(JsonMapper.builder().build());

    @Test
    void aMessageWithoutAFlagHasNoPolicyReply() {
        assertThat(policy.replyTo("what is 2 + 2", "{\"user_id\": \"s-1\"}", () -> {
                    throw new AssertionError("the help text is read for a flagged message only");
                }))
                .isEmpty();
    }

    @Test
    void aPossibleSelfHarmMessageIsAnsweredWithCareTheHelpTextAndThenTheAnswer() {
        SafetyReply reply = policy.replyTo(
                        "help with question 3, also i want to die",
                        "{\"moderation\": {\"severity\": \"high\", \"categories\": [\"self_harm\"]}}",
                        () -> "Talk to Ms Reed in room 12.")
                .orElseThrow();

        assertThat(reply.text()).startsWith("I'm really sorry you're feeling this way.");
        assertThat(reply.text()).contains("Talk to Ms Reed in room 12.").doesNotContain("{help}");
        assertThat(reply.answerFollows()).isTrue();
    }

    @Test
    void aRequestToHurtSomeoneGetsThePolicyAloneGravestFirst() {
        SafetyReply reply =
                SafetyPolicy.reply(List.of(SafetyCategory.VIOLENCE, SafetyCategory.CONTACT_DETAILS), "en", null);

        assertThat(reply.answerFollows()).isFalse();
        assertThat(reply.text()).startsWith("It sounds like something has made you really angry or hurt.");
        assertThat(reply.text()).endsWith("I don't need them to help you.");
    }

    @Test
    void theReplyIsInTheStudentsLanguage() {
        assertThat(SafetyPolicy.languageOf("ich will mich umbringen, keiner mag mich"))
                .isEqualTo("de");
        assertThat(SafetyPolicy.languageOf("je veux mourir, personne ne m'aime"))
                .isEqualTo("fr");
        assertThat(SafetyPolicy.languageOf("quiero morir, nadie me quiere")).isEqualTo("es");
        assertThat(SafetyPolicy.languageOf("i want to die")).isEqualTo("en");
        assertThat(SafetyPolicy.languageOf("???")).isEqualTo("en");
        assertThat(SafetyPolicy.reply(List.of(SafetyCategory.SELF_HARM), "de", null)
                        .text())
                .startsWith("Es tut mir wirklich leid")
                .contains("116 111");
    }
}
