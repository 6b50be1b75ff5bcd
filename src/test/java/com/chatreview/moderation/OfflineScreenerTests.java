package com.chatreview.moderation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The offline screener (docs/safety.md). How well it screens is measured on the labelled corpora by
 * bench/moderation/run.sh, not here: these tests hold what must not change whatever the rules say.
 */
class OfflineScreenerTests {

    static final OfflineScreener SCREENER = OfflineScreener.standard();

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            i want to kill myself, nobody would even notice                      | self_harm
            ich will mich umbringen                                              | self_harm
            je veux me suicider ce soir                                          | self_harm
            quiero quitarme la vida                                              | self_harm
            I'm going to bring my dad's gun to school tomorrow                   | violence
            ich bring dich um                                                    | violence
            je vais te planter                                                   | violence
            te voy a matar                                                       | violence
            he's 30 and keeps asking me for nudes, i'm 13                         | sexual_minors
            Emma is a fat ugly loser, everyone should tell her to die            | harassment
            my number is +49 151 2345 6789                                       | contact_details
            """)
    void aHarmfulMessageIsFlaggedWithItsCategory(String text, String category) {
        Screening screening = SCREENER.screen(text);

        assertThat(screening.categories()).contains(SafetyCategory.of(category).orElseThrow());
        assertThat(screening.screenedBy()).isEqualTo("offline");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            this homework is killing me
            how do I kill a process in Linux?
            why does Romeo kill himself?
            shoot me an example of a for loop
            write a regex that matches phone numbers like 555-123-4567
            diese Hausaufgabe bringt mich um
            ces devoirs vont me tuer
            explain sexual reproduction in plants
            """)
    void aBenignLookAlikeIsNotFlagged(String text) {
        assertThat(SCREENER.screen(text).flagged()).as(text).isFalse();
    }

    @Test
    void theGravestCategoryGivesTheSeverity() {
        Screening both = SCREENER.screen("i want to kill myself, call me on +44 7700 900123");

        assertThat(both.categories()).containsExactly(SafetyCategory.SELF_HARM, SafetyCategory.CONTACT_DETAILS);
        assertThat(both.severity()).isEqualTo(Severity.HIGH);
        assertThat(SCREENER.screen("my email is lena.m2011@gmail.com").severity())
                .isEqualTo(Severity.LOW);
        Screening clear = SCREENER.screen("what is 7 times 8?");
        assertThat(clear.flagged()).isFalse();
        assertThat(clear.severity()).isNull();
    }

    @Test
    void theTextIsReadWithoutCaseAccentsStretchingOrCurlyApostrophes() {
        assertThat(OfflineScreener.normalized("Ich  WILL   mich UMBRINGEN")).isEqualTo(" ich will mich umbringen ");
        assertThat(OfflineScreener.normalized("Große Straße, fiancé")).isEqualTo(" grosse strasse, fiance ");
        assertThat(OfflineScreener.normalized("I’m soooo tired\n\tnow")).isEqualTo(" i'm soo tired now ");
        assertThat(SCREENER.screen("I WANNNNA DIE").categories()).containsExactly(SafetyCategory.SELF_HARM);
    }

    @Test
    void runningOnlyTheTriggeredRulesFindsWhatRunningThemAllFinds() throws IOException {
        List<String> texts = new ArrayList<>();
        try (Stream<Path> corpora = Files.list(Path.of("bench/moderation"))) {
            for (Path corpus :
                    corpora.filter(path -> path.toString().endsWith(".tsv")).toList()) {
                List<String> lines = Files.readAllLines(corpus);
                lines.subList(1, lines.size()).forEach(line -> texts.add(line.split("\t", 3)[2]));
            }
        }
        assertThat(texts).hasSizeGreaterThanOrEqualTo(440);

        for (String text : texts) {
            assertThat(SCREENER.byRules(text)).as(text).isEqualTo(SCREENER.byRulesWithoutTriggers(text));
        }
    }

    @Test
    void aDocumentIsScreenedInPiecesWithoutItsContactDetails() {
        String essay = "Lena Meyer, lena@example.org, +49 151 2345 6789\n\n" + "The water cycle. ".repeat(400) + "\n\n"
                + "i want to kill myself";

        Screening screening = SCREENER.screenDocument(essay);

        assertThat(screening.categories()).containsExactly(SafetyCategory.SELF_HARM);
        assertThat(SafetyScreener.pieces(essay))
                .hasSizeGreaterThan(3)
                .allSatisfy(piece -> assertThat(piece.length()).isLessThanOrEqualTo(SafetyScreener.PIECE + 1));
        assertThat(String.join("", SafetyScreener.pieces(essay)).replace("\n", ""))
                .isEqualTo(essay.replaceAll("\n\\s*\n", ""));
        assertThat(SCREENER.screenDocument("").flagged()).isFalse();
    }

    @Test
    void anEmptyOrHugeTextIsScreenedWithoutFailing() {
        assertThat(SCREENER.screen("").flagged()).isFalse();
        String huge = "please help with my homework ".repeat(2_000) + "i want to kill myself";
        assertThat(SCREENER.screen(huge).categories()).containsExactly(SafetyCategory.SELF_HARM);
    }
}
