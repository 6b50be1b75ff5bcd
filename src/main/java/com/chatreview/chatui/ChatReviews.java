package com.chatreview.chatui;

import com.chatreview.chat.Chat;
import com.chatreview.grading.Verdict;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The review a chat is about, for its page to show beside the messages: implemented by the module that owns
 * reviews, so that the page module knows no submission.
 */
public interface ChatReviews {

    /** Empty for a chat that is about no review. */
    Optional<ChatReview> reviewOf(Chat chat);

    /** @param verdict the review's verdict, or {@code null} while the review is still to come */
    record ChatReview(@Nullable Verdict verdict) {}
}
