package com.chatreview.chatui.web;

import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatMessage;
import com.chatreview.chatui.ChatReviews;
import com.chatreview.chatui.ChatUi;
import com.chatreview.grading.Verdict;
import com.chatreview.kernel.InvalidInput;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
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

    @PostMapping(path = "/chat-ui/api/chats/{chat_id}/regrade-requests", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(
            summary = "The chat's student asks the teacher to look again at a criterion, from the chat page",
            description = "No API key, as the history: the link (and embed token) is the credential. The rules of"
                    + " POST /v1/homeworks/{homeworkId}/submissions/{submissionId}/regrade-requests; 404 for a chat"
                    + " about no review.")
    PageRegrade requestRegrade(
            @PathVariable("chat_id") String chatId,
            @RequestParam(name = "token", required = false) String token,
            @RequestHeader(name = "X-Embed-Token", required = false) String tokenHeader,
            @RequestBody NewPageRegrade body,
            HttpServletRequest request) {
        String fix = "Send {\"criterion_id\"?, \"message\"}: the message 1 to 2,000 characters.";
        if (body == null || body.message() == null || body.message().isBlank()) {
            throw InvalidInput.field("message", "is required", fix);
        }
        if (body.message().length() > 2_000) {
            throw InvalidInput.field("message", "must be at most 2,000 characters", fix);
        }
        String criterion = body.criterionId() == null || body.criterionId().isBlank() ? null : body.criterionId();
        return PageRegrade.of(ui.requestRegrade(
                chatId,
                tokenHeader != null && !tokenHeader.isBlank() ? tokenHeader : token,
                request.getRemoteAddr(),
                criterion,
                body.message()));
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
                    : new PageReviewState(PageReview.of(verdict, review), false);
        }
    }

    /**
     * What the student sees of a review beside its message: the final grade and points by criterion (the teacher's
     * where they gave some, the review's beside them), the findings, and their regrade requests.
     */
    record PageReview(
            @Schema(description = "The final letter") String grade,
            @Schema(description = "The final points") int points,
            @JsonProperty("max_points") int maxPoints,
            @JsonProperty("ai_grade") String aiGrade,
            List<PageCriterion> criteria,
            List<PageFinding> findings,

            @Schema(description = "The teacher's comment on the whole", nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            String comment,

            @JsonProperty("regrade_requests") List<PageRegrade> regradeRequests,

            @Schema(description = "Whether a regrade request would be taken now (at most 3 wait for an answer)")
            @JsonProperty("may_ask_for_regrade")
            boolean mayAskForRegrade) {

        static PageReview of(Verdict verdict, ChatReviews.ChatReview review) {
            ChatReviews.Grade grade = review.grade();
            Map<String, ChatReviews.CriterionGrade> finals = new HashMap<>();
            if (grade != null) {
                grade.criteria().forEach(criterion -> finals.put(criterion.criterionId(), criterion));
            }
            return new PageReview(
                    grade == null ? verdict.grade() : grade.letter(),
                    grade == null ? verdict.points() : grade.points(),
                    grade == null ? verdict.maxPoints() : grade.maxPoints(),
                    verdict.grade(),
                    verdict.criteria().stream()
                            .map(score -> PageCriterion.of(score, finals.get(score.criterionId())))
                            .toList(),
                    verdict.findings().stream().map(PageFinding::of).toList(),
                    grade == null ? null : grade.comment(),
                    review.regrades().stream().map(PageRegrade::of).toList(),
                    review.mayAskForRegrade());
        }
    }

    record PageCriterion(
            @JsonProperty("criterion_id") String criterionId,
            String title,
            @Schema(description = "The final points") int points,
            @JsonProperty("max_points") int maxPoints,
            @JsonProperty("ai_points") int aiPoints,

            @Schema(allowableValues = {"ai", "teacher"}) @JsonProperty("graded_by")
            String gradedBy,

            @Schema(description = "The teacher's comment on these points", nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            String comment,

            String explanation,
            @JsonProperty("finding_ids") List<String> findingIds) {

        static PageCriterion of(Verdict.CriterionScore score, ChatReviews.@Nullable CriterionGrade given) {
            boolean byTeacher = given != null && given.byTeacher();
            return new PageCriterion(
                    score.criterionId(),
                    score.title(),
                    given == null ? score.points() : given.points(),
                    score.maxPoints(),
                    score.points(),
                    byTeacher ? "teacher" : "ai",
                    given != null && byTeacher ? given.comment() : null,
                    score.explanation(),
                    score.findingIds());
        }
    }

    record PageRegrade(
            String id,

            @JsonProperty("criterion_id") @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable
            String criterionId,

            String message,
            @Schema(allowableValues = {"open", "answered"}) String state,

            @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable
            String answer,

            @JsonProperty("created_at") Instant createdAt,

            @JsonProperty("answered_at") @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable
            Instant answeredAt) {

        static PageRegrade of(ChatReviews.Regrade regrade) {
            return new PageRegrade(
                    regrade.id(),
                    regrade.criterionId(),
                    regrade.message(),
                    regrade.state(),
                    regrade.answer(),
                    regrade.createdAt(),
                    regrade.answeredAt());
        }
    }

    record NewPageRegrade(
            @JsonProperty("criterion_id") @Nullable String criterionId,
            @Nullable String message) {}

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
