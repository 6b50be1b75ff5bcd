package com.chatreview.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class DocumentedJsonTests {

    @Test
    void aFieldMissingOrExtraAtAnyDepthIsADifference() {
        assertThat(DocumentedJson.differences(
                        json("{\"a\": 1, \"b\": [{\"c\": \"x\", \"d\": null}]}"),
                        json("{\"a\": 2, \"b\": [{\"c\": \"y\", \"e\": 1}], \"f\": true}")))
                .containsExactly(
                        "$.f: answered, not documented",
                        "$.b[0].d: documented, not answered",
                        "$.b[0].e: answered, not documented");
    }

    @Test
    void aShortenedObjectOrAnEmptyArrayShowsOnlyWhatItShows() {
        assertThat(DocumentedJson.differences(
                        json("{\"a\": [], \"b\": {\"c\": 1, \"...\": \"...\"}, \"d\": \"...\"}"),
                        json("{\"a\": [{\"x\": 1}], \"b\": {\"c\": 2, \"z\": 3}, \"d\": {\"deep\": 1}}")))
                .isEmpty();
        assertThat(DocumentedJson.differences(
                        json("{\"b\": {\"q\": 1, \"...\": \"...\"}}"), json("{\"b\": {\"c\": 2}}")))
                .containsExactly("$.b.q: documented, not answered");
    }

    @Test
    void aValueOfAnotherKindIsADifference() {
        assertThat(DocumentedJson.differences(json("{\"a\": 1, \"b\": \"1\"}"), json("{\"a\": \"1\", \"b\": null}")))
                .containsExactly("$.a: documented as NUMBER, answered STRING");
    }

    @Test
    void theExamplesOfASectionAreItsJsonBlocks() {
        assertThat(DocumentedJson.examples("api.md", "Agreement").getFirst().has("criteria"))
                .isTrue();
    }

    private static JsonNode json(String text) {
        return Api.JSON.readTree(text);
    }
}
