package com.chatreview.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestTenant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a tenant stores in the fields every list answer repeats is bounded (docs/api.md, Homework): a chat's metadata at
 * 16 KiB as JSON, a homework's files at 256 KiB of content in all; past either, 400 naming the field.
 */
@IntegrationTest
class InputBoundsIntegrationTests {

    /** {"note":"xxx..."}: 11 bytes around the text. */
    private static Map<String, Object> metadataOf(int jsonBytes) {
        return Map.of("note", "x".repeat(jsonBytes - 11));
    }

    @Test
    void aChatsMetadataHoldsSixteenKibibytesAtMost(TestTenant tenant) {
        Api chats = tenant.chats();
        Api.Reply fits = chats.post(
                "/api/v1/chats", Api.JSON.writeValueAsString(Map.of("user_id", "u", "metadata", metadataOf(16384))));
        assertThat(fits.status()).as(fits.toString()).isEqualTo(201);

        Api.Reply tooLarge = chats.post(
                "/api/v1/chats", Api.JSON.writeValueAsString(Map.of("user_id", "u", "metadata", metadataOf(16385))));
        assertThat(tooLarge.status()).isEqualTo(400);
        assertThat(tooLarge.json().get("errors").get(0).get("field").asString()).isEqualTo("metadata");
        assertThat(tooLarge.json().get("fix").asString()).isNotBlank();

        String chatId = fits.json().get("id").asString();
        Api.Reply patched = chats.patch(
                "/api/v1/chats/" + chatId, Api.JSON.writeValueAsString(Map.of("metadata", metadataOf(16385))));
        assertThat(patched.status()).isEqualTo(400);
        assertThat(patched.json().get("errors").get(0).get("field").asString()).isEqualTo("metadata");
        assertThat(chats.get("/api/v1/chats/" + chatId)
                        .json()
                        .get("config")
                        .get("metadata")
                        .get("note")
                        .asString())
                .as("the chat as it was")
                .hasSize(16384 - 11);
    }

    @Test
    void aHomeworksFilesHoldTwoHundredFiftySixKibibytesOfContentInAll(TestTenant tenant) {
        Api homework = tenant.homework();
        String courseId = homework.post("/v1/courses", "{\"teacherId\": \"t\", \"name\": \"c\"}")
                .json()
                .get("id")
                .asString();
        String half = "y".repeat(128 * 1024);

        Api.Reply fits = homework.post("/v1/homeworks", body(courseId, List.of(half, half)));
        assertThat(fits.status()).as(fits.toString()).isEqualTo(201);

        Api.Reply tooLarge = homework.post("/v1/homeworks", body(courseId, List.of(half, half + "z")));
        assertThat(tooLarge.status()).isEqualTo(400);
        assertThat(tooLarge.json().get("errors").get(0).get("field").asString()).isEqualTo("files");
    }

    private static String body(String courseId, List<String> contents) {
        return Api.JSON.writeValueAsString(Map.of(
                "teacherId",
                "t",
                "courseId",
                courseId,
                "assignmentId",
                "a",
                "files",
                contents.stream()
                        .map(content -> Map.of("fileType", "task", "fileName", "task.md", "content", content))
                        .toList()));
    }
}
