package com.chatreview.chatui.web;

import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatMessage;
import com.chatreview.chatui.ChatReviews;
import com.chatreview.chatui.ChatUi;
import com.chatreview.grading.Verdict;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The page's REST side, without a tenant key: the link (and, when the tenant requires it, the embed token) is the
 * credential. It shows what the chat's owner sees: the chat and its messages, without the tenant's metadata.
 */
@RestController
@Tag(name = "Chat page")
class ChatPageApiController {

    private final ChatUi ui;

    ChatPageApiController(ChatUi ui) {
        this.ui = ui;
    }

    @GetMapping("/chat-ui/api/chats/{chat_id}")
    @Operation(
            summary = "A chat and its history, for the chat page",
            description = "No API key: the chat id is the credential, with ?token= (or X-Embed-Token) when the"
                    + " tenant requires embed tokens. last_seq is the resume_from for /ws/chat-ui. The latest "
                    + ChatUi.HISTORY_LIMIT + " messages, oldest first; offset is the first one's position in the"
                    + " chat (0 for its first message), and has_more says whether ?before=<offset> gives earlier"
                    + " ones.")
    ResponseEntity<PageBody> chat(
            @PathVariable("chat_id") String chatId,
            @RequestParam(name = "token", required = false) String token,
            @RequestParam(name = "before", required = false) Integer before,
            @RequestHeader(name = "X-Embed-Token", required = false) String tokenHeader,
            HttpServletRequest request) {
        ChatUi.History history = ui.history(
                chatId,
                tokenHeader != null && !tokenHeader.isBlank() ? tokenHeader : token,
                request.getRemoteAddr(),
                before);
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .header("Referrer-Policy", "no-referrer")
                .body(PageBody.of(history));
    }

    @GetMapping("/chat-ui/api/chats/{chat_id}/review")
    @Operation(
            summary = "The review a review chat is about, for the chat page",
            description = "No API key, as the history. review is null and review_pending true until the review is"
                    + " stored; both are null/false for a chat about no review. The page asks again when a reply"
                    + " ends while the review is pending.")
    ResponseEntity<PageReviewState> review(
            @PathVariable("chat_id") String chatId,
            @RequestParam(name = "token", required = false) String token,
            @RequestHeader(name = "X-Embed-Token", required = false) String tokenHeader,
            HttpServletRequest request) {
        Optional<ChatReviews.ChatReview> review = ui.review(
                chatId, tokenHeader != null && !tokenHeader.isBlank() ? tokenHeader : token, request.getRemoteAddr());
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .header("Referrer-Policy", "no-referrer")
                .body(PageReviewState.of(review.orElse(null)));
    }

    record PageBody(
            ChatSummary chat,
            List<MessageSummary> messages,
            @JsonProperty("last_seq") long lastSeq,
            int offset,
            @JsonProperty("has_more") boolean hasMore,

            @Schema(nullable = true, description = "The review this chat is about, once it is stored") @Nullable
            PageReview review,

            @JsonProperty("review_pending") boolean reviewPending) {

        static PageBody of(ChatUi.History history) {
            PageReviewState review = PageReviewState.of(history.review());
            return new PageBody(
                    ChatSummary.of(history.chat()),
                    history.messages().stream().map(MessageSummary::of).toList(),
                    history.lastSeq(),
                    history.offset(),
                    history.offset() > 0,
                    review.review(),
                    review.reviewPending());
        }
    }

    record PageReviewState(
            @Schema(nullable = true) @Nullable PageReview review,
            @JsonProperty("review_pending") boolean reviewPending) {

        static PageReviewState of(ChatReviews.@Nullable ChatReview review) {
            if (review == null) {
                return new PageReviewState(null, false);
            }
            Verdict verdict = review.verdict();
            return verdict == null
                    ? new PageReviewState(null, true)
                    : new PageReviewState(PageReview.of(verdict), false);
        }
    }

    /** What the student sees of a review beside its message: the points by criterion and the findings. */
    record PageReview(
            String grade,
            int points,
            @JsonProperty("max_points") int maxPoints,
            List<PageCriterion> criteria,
            List<PageFinding> findings) {

        static PageReview of(Verdict verdict) {
            return new PageReview(
                    verdict.grade(),
                    verdict.points(),
                    verdict.maxPoints(),
                    verdict.criteria().stream().map(PageCriterion::of).toList(),
                    verdict.findings().stream().map(PageFinding::of).toList());
        }
    }

    record PageCriterion(
            @JsonProperty("criterion_id") String criterionId,
            String title,
            int points,
            @JsonProperty("max_points") int maxPoints,
            String explanation,
            @JsonProperty("finding_ids") List<String> findingIds) {

        static PageCriterion of(Verdict.CriterionScore score) {
            return new PageCriterion(
                    score.criterionId(),
                    score.title(),
                    score.points(),
                    score.maxPoints(),
                    score.explanation(),
                    score.findingIds());
        }
    }

    record PageFinding(
            String id,
            @JsonProperty("criterion_id") String criterionId,
            String severity,
            @Nullable String file,
            @Nullable Integer line,
            @JsonProperty("end_line") @Nullable Integer endLine,
            @Nullable String quote,
            String message) {

        static PageFinding of(Verdict.Finding finding) {
            return new PageFinding(
                    finding.id(),
                    finding.criterionId(),
                    finding.severity().value(),
                    finding.file(),
                    finding.line(),
                    finding.endLine(),
                    finding.quote(),
                    finding.message());
        }
    }

    record ChatSummary(
            String id,
            @JsonProperty("user_id") String userId,
            String title,
            String status,
            @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("last_message_at") @Nullable Instant lastMessageAt,
            @JsonProperty("message_count") int messageCount) {

        static ChatSummary of(Chat chat) {
            return new ChatSummary(
                    chat.id().toString(),
                    chat.userId(),
                    chat.title(),
                    chat.status().value(),
                    chat.createdAt(),
                    chat.lastMessageAt(),
                    chat.messageCount());
        }
    }

    /** A message as the page shows it; {@code seq} is the one of the event that announced it, or null. */
    record MessageSummary(
            String id,
            String content,
            @JsonProperty("sender_role") String senderRole,
            @JsonProperty("media_type") @Nullable String mediaType,
            @JsonProperty("media_url") @Nullable String mediaUrl,
            @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("client_message_id") @Nullable String clientMessageId,
            @Nullable Long seq) {

        static MessageSummary of(ChatMessage message) {
            return new MessageSummary(
                    message.id().toString(),
                    message.content(),
                    message.senderRole().value(),
                    message.mediaType(),
                    message.mediaUrl(),
                    message.createdAt(),
                    message.clientMessageId(),
                    message.eventSeq());
        }
    }
}
