package com.chatreview.chatui;

import com.chatreview.chat.Chat;
import com.chatreview.grading.Verdict;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The review a chat is about, for its page to show beside the messages, and the student's regrade requests from the
 * page: implemented by the module that owns reviews, so that the page module knows no submission.
 */
public interface ChatReviews {

    /** Empty for a chat that is about no review. */
    Optional<ChatReview> reviewOf(Chat chat);

    /**
     * The chat's student asks the teacher to look again at a criterion ({@code null}: the whole grade), as the API's
     * regrade request does, with the same rules and errors; empty for a chat that is about no review.
     */
    Optional<Regrade> requestRegrade(Chat chat, @Nullable String criterionId, String message);

    /**
     * @param verdict the review's verdict, or {@code null} while the review is still to come
     * @param grade the final grade (the teacher's points where they gave some), or {@code null} before any
     * @param regrades the student's regrade requests, oldest first
     * @param mayAskForRegrade whether a request would be taken now (graded, fewer than the most open)
     */
    record ChatReview(
            @Nullable Verdict verdict, @Nullable Grade grade, List<Regrade> regrades, boolean mayAskForRegrade) {

        public ChatReview {
            regrades = List.copyOf(regrades);
        }
    }

    /** The final grade: the letter, the points, per criterion who gave them, and the teacher's comment. */
    record Grade(
            String letter,
            int points,
            int maxPoints,
            List<CriterionGrade> criteria,
            @Nullable String comment) {

        public Grade {
            criteria = List.copyOf(criteria);
        }
    }

    /**
     * A criterion's final points.
     *
     * @param aiPoints the review's, or {@code null} when the review has not graded it
     */
    record CriterionGrade(
            String criterionId,
            String title,
            int points,
            int maxPoints,
            @Nullable Integer aiPoints,
            boolean byTeacher,
            @Nullable String comment) {}

    /** A regrade request as its student sees it. */
    record Regrade(
            String id,
            @Nullable String criterionId,
            String message,
            String state,
            @Nullable String answer,
            Instant createdAt,
            @Nullable Instant answeredAt) {}
}
