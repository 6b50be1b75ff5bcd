package com.chatreview.chat.web;

import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatChanges;
import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.ChatStatus;
import com.chatreview.chat.NewChat;
import com.chatreview.chat.json.ChatBodies.ChatBody;
import com.chatreview.chat.json.ChatBodies.ChatList;
import com.chatreview.chat.json.ChatBodies.CreateChatRequest;
import com.chatreview.chat.json.ChatBodies.Deleted;
import com.chatreview.chat.json.ChatBodies.MessageList;
import com.chatreview.chat.json.ChatBodies.UpdateChatRequest;
import com.chatreview.idempotency.IdempotentRequests;
import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.Tenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.WebRequest;

/** Endpoints 1–5 of the interface, and {@code PATCH} (docs/api.md, Chats). */
@RestController
@RequestMapping("/api/v1/chats")
@Tag(name = "Chats")
@SecurityRequirement(name = "X-API-Key")
class ChatController {

    private static final int MAX_USER_ID = 255;
    private static final int MAX_TITLE = 200;

    private final ChatManagement chats;
    private final ChatReads reads;
    private final IdempotentRequests idempotency;

    ChatController(ChatManagement chats, ChatReads reads, IdempotentRequests idempotency) {
        this.chats = chats;
        this.reads = reads;
        this.idempotency = idempotency;
    }

    @PostMapping(
            path = {"", "/"},
            consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a chat", description = "Answers with and without the trailing slash.")
    @ApiResponse(responseCode = "201", content = @Content(schema = @Schema(implementation = ChatBody.class)))
    ResponseEntity<Object> create(
            Tenant tenant,
            @RequestBody CreateChatRequest request,
            @RequestHeader(name = IdempotentRequests.HEADER, required = false) String idempotencyKey) {
        NewChat chat = validated(request);
        return idempotency.runJson(
                tenant.id().value(),
                idempotencyKey,
                "POST /api/v1/chats",
                request,
                () -> new IdempotentRequests.Response(
                        HttpStatus.CREATED, ChatBody.created(chats.create(tenant.id(), chat))));
    }

    @GetMapping("/user/{user_id}")
    @Operation(summary = "List a user's chats", description = "404 when the user has no chats.")
    ChatList chatsOfUser(
            Tenant tenant,
            @PathVariable("user_id") String userId,
            @RequestParam(required = false) String offset,
            @RequestParam(required = false) String limit,
            @RequestParam(required = false) String order) {
        PageRequest page = PageRequest.parse(offset, limit, order, 50, false);
        Page<Chat> found = chats.chatsOf(tenant.id(), userId, page);
        return new ChatList(
                found.items().stream().map(ChatBody::listed).toList(),
                found.total(),
                page.offset(),
                page.limit(),
                page.hasMore(found.total(), found.items().size()));
    }

    /** Also served ahead of Spring MVC by {@link HotChatReads}: the same answer, by {@link ChatReads}. */
    @GetMapping("/{chat_id}")
    @Operation(summary = "Get a chat")
    @Nullable
    ChatBody chat(Tenant tenant, @PathVariable("chat_id") UUID chatId, WebRequest request) {
        return reads.chat(tenant.id(), ChatId.of(chatId), ChatReads.Conditional.of(request));
    }

    /** Also served ahead of Spring MVC by {@link HotChatReads}: the same answer, by {@link ChatReads}. */
    @GetMapping("/{chat_id}/messages")
    @Operation(summary = "Get a chat's messages, in the order they were stored")
    @Nullable
    MessageList messages(
            Tenant tenant,
            @PathVariable("chat_id") UUID chatId,
            @RequestParam(required = false) String offset,
            @RequestParam(required = false) String limit,
            @RequestParam(required = false) String order,
            WebRequest request) {
        return reads.messages(
                tenant.id(),
                ChatId.of(chatId),
                ChatReads.page(offset, limit, order),
                ChatReads.Conditional.of(request));
    }

    @PatchMapping(path = "/{chat_id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Change a chat's title, metadata or status ('active' or 'closed')")
    ChatBody update(Tenant tenant, @PathVariable("chat_id") UUID chatId, @RequestBody UpdateChatRequest request) {
        return ChatBody.full(chats.update(tenant.id(), ChatId.of(chatId), validated(request)));
    }

    @DeleteMapping("/{chat_id}")
    @Operation(summary = "Delete a chat and all its messages", description = "409 while the chat is held open.")
    Deleted delete(Tenant tenant, @PathVariable("chat_id") UUID chatId) {
        return new Deleted(
                true,
                "Chat " + chatId + " and its messages were deleted",
                chats.delete(tenant.id(), ChatId.of(chatId)));
    }

    private static NewChat validated(CreateChatRequest request) {
        if (request == null) {
            throw InvalidInput.field(
                    "user_id", "is required", "Send a JSON object such as {\"user_id\": \"student-42\"}.");
        }
        List<FieldProblem> problems = new ArrayList<>();
        if (request.userId() == null || request.userId().isBlank()) {
            problems.add(new FieldProblem("user_id", "is required and must not be blank"));
        } else if (request.userId().length() > MAX_USER_ID) {
            problems.add(new FieldProblem("user_id", "must be at most " + MAX_USER_ID + " characters"));
        }
        if (request.title() != null && request.title().length() > MAX_TITLE) {
            problems.add(new FieldProblem("title", "must be at most " + MAX_TITLE + " characters"));
        }
        if (!problems.isEmpty()) {
            throw InvalidInput.fields(
                    problems, "Send {\"user_id\": \"...\"} with an optional title and a metadata object.");
        }
        return new NewChat(request.userId(), request.title(), request.metadata(), Map.of());
    }

    private static ChatChanges validated(UpdateChatRequest request) {
        if (request == null) {
            return new ChatChanges(null, null, null);
        }
        List<FieldProblem> problems = new ArrayList<>();
        if (request.title() != null
                && (request.title().isBlank() || request.title().length() > MAX_TITLE)) {
            problems.add(new FieldProblem("title", "must be 1 to " + MAX_TITLE + " characters"));
        }
        ChatStatus status = null;
        if (request.status() != null) {
            status = ChatStatus.of(request.status()).orElse(null);
            if (status == null) {
                problems.add(new FieldProblem("status", "must be 'active' or 'closed'"));
            }
        }
        if (!problems.isEmpty()) {
            throw InvalidInput.fields(
                    problems, "Send any of title, metadata (an object) and status ('active' or 'closed').");
        }
        return new ChatChanges(request.title() == null ? null : request.title().strip(), request.metadata(), status);
    }
}
