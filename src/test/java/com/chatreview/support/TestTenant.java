package com.chatreview.support;

import com.chatreview.tenancy.TenantId;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A tenant made for one test, with clients that carry its key; the key works in both key headers. */
public record TestTenant(UUID uuid, String apiKey, int port) {

    /** The tenant, as the services take it. */
    public TenantId tenantId() {
        return TenantId.of(uuid);
    }

    /** The tenant's id as the API writes it. */
    public String id() {
        return uuid.toString();
    }

    /** A client of the chat endpoints: the key in {@code X-API-Key}. */
    public Api chats() {
        return chats(new Api(port));
    }

    /** A client of the homework endpoints: the key in {@code x-tenant-api-secret}. */
    public Api homework() {
        return homework(new Api(port));
    }

    /** The given client (one with its own client address, say) with the key in {@code X-API-Key}. */
    public Api chats(Api api) {
        return api.with("X-API-Key", apiKey);
    }

    public Api homework(Api api) {
        return api.with("x-tenant-api-secret", apiKey);
    }

    /**
     * A homework with one task file, in a course of its own, published by teacher {@code t-1}: its id. For tests
     * that need a homework to upload to, not one of a particular shape.
     */
    public String publishHomework(String assignmentId) {
        Api homework = homework();
        Api.Reply course = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Course\"}");
        if (course.status() != 201) {
            throw new AssertionError("The course was not created: " + course);
        }
        Api.Reply published = homework.post(
                "/v1/homeworks",
                Api.JSON.writeValueAsString(Map.of(
                        "teacherId",
                        "t-1",
                        "courseId",
                        course.json().get("id").asString(),
                        "assignmentId",
                        assignmentId,
                        "files",
                        List.of(Map.of("fileType", "task", "fileName", "task.md", "content", "Do it.\n")))));
        if (published.status() != 201) {
            throw new AssertionError("The homework was not published: " + published);
        }
        return published.json().get("id").asString();
    }

    /** A student's upload of one file to the homework, answered 201: the submission as the answer shows it. */
    public tools.jackson.databind.JsonNode upload(
            String homeworkId, String studentId, String fileName, String content) {
        Api.Reply uploaded = homework()
                .upload(
                        "/v1/homeworks/" + homeworkId + "/submissions",
                        new Api.Multipart()
                                .field("studentId", studentId)
                                .file(
                                        "files",
                                        fileName,
                                        "text/plain",
                                        content.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        if (uploaded.status() != 201) {
            throw new AssertionError("The upload was refused: " + uploaded);
        }
        return uploaded.json();
    }

    /** A WebSocket to the chat, as {@code userId}, with this tenant's key. */
    public ChatSocket socket(String userId, String chatId) {
        return ChatSocket.connect(port, apiKey, userId, chatId);
    }
}
