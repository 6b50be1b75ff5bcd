package com.chatreview.review;

import com.chatreview.assistant.Conversation.ContextDocument;
import com.chatreview.chat.Chat;
import com.chatreview.chatui.ChatReviews;
import com.chatreview.conversation.ChatContextSource;
import com.chatreview.grading.Verdict;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.submission.GradedCriterion;
import com.chatreview.submission.RegradeRequest;
import com.chatreview.submission.Regrades;
import com.chatreview.submission.ReviewOutcome;
import com.chatreview.submission.ReviewProgress;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionsForReview;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * A review chat's questions are answered with the homework's task and restrictions, the student's files and the
 * review's verdict in the assistant's context (not the reference solution: no answer may hand it out).
 */
@Component
class ReviewChatContext implements ChatContextSource, ChatReviews {

    private final SubmissionsForReview submissions;
    private final HomeworkCatalog homeworks;
    private final ReviewSettings settings;
    private final Regrades regrades;

    ReviewChatContext(
            SubmissionsForReview submissions, HomeworkCatalog homeworks, ReviewSettings settings, Regrades regrades) {
        this.regrades = regrades;
        this.submissions = submissions;
        this.homeworks = homeworks;
        this.settings = settings;
    }

    @Override
    public ChatContext contextOf(Chat chat) {
        return submissionOf(chat)
                .flatMap(submission -> homeworks
                        .find(chat.tenantId(), submission.homeworkId())
                        .map(homework -> context(submission, homework)))
                .orElse(ChatContext.NONE);
    }

    private ChatContext context(Submission submission, Homework homework) {
        List<ContextDocument> documents = new ArrayList<>(
                ReviewMaterial.chatContext(homework, submissions.texts(submission, settings.maxCharsPerFile())));
        if (submission.tests() != null) {
            documents.add(ReviewMaterial.testsDocument(submission.tests()));
        }
        Verdict review = verdict(submission);
        if (review != null) {
            // for a model: the review it is asked about, as the student read it (it holds nothing of the reference)
            documents.add(new ContextDocument("review", "the review of this submission", review.analysis()));
        }
        return new ChatContext(documents, review);
    }

    @Override
    public Optional<ChatReview> reviewOf(Chat chat) {
        return submissionOf(chat)
                .map(submission -> new ChatReview(
                        verdict(submission),
                        grade(submission),
                        submission.regradeRequests().stream()
                                .map(ReviewChatContext::regrade)
                                .toList(),
                        submission.graded()
                                && submission.regradeRequests().stream()
                                                .filter(request -> request.state() == RegradeRequest.State.OPEN)
                                                .count()
                                        < RegradeRequest.MAX_OPEN));
    }

    @Override
    public Optional<ChatReviews.Regrade> requestRegrade(Chat chat, @Nullable String criterionId, String message) {
        return submissionOf(chat)
                .map(submission -> regrade(regrades.request(
                        chat.tenantId(),
                        submission.homeworkId(),
                        submission.id(),
                        submission.studentId(),
                        criterionId,
                        message)));
    }

    /** The final grade as the page shows it; {@code null} before the review or the teacher graded. */
    private static ChatReviews.@Nullable Grade grade(Submission submission) {
        if (!submission.graded()) {
            return null;
        }
        Map<String, Integer> ai = new HashMap<>();
        submission.outcome().criteria().forEach(score -> ai.put(score.criterionId(), score.points()));
        List<ChatReviews.CriterionGrade> criteria = submission.criteria().stream()
                .map(criterion -> new ChatReviews.CriterionGrade(
                        criterion.score().criterionId(),
                        criterion.score().title(),
                        criterion.score().points(),
                        criterion.score().maxPoints(),
                        ai.get(criterion.score().criterionId()),
                        criterion.gradedBy() == GradedCriterion.GradedBy.TEACHER,
                        criterion.comment()))
                .toList();
        return new ChatReviews.Grade(
                submission.grade(),
                submission.points(),
                criteria.stream()
                        .mapToInt(ChatReviews.CriterionGrade::maxPoints)
                        .sum(),
                criteria,
                submission.comment());
    }

    private static ChatReviews.Regrade regrade(RegradeRequest request) {
        return new ChatReviews.Regrade(
                request.id().toString(),
                request.criterionId(),
                request.message(),
                request.state().value(),
                request.answer(),
                request.createdAt(),
                request.answeredAt());
    }

    /** The submission a review chat is about, of the chat's own tenant; none for any other chat. */
    private Optional<Submission> submissionOf(Chat chat) {
        return submissions.reviewedIn(chat.tenantId(), chat.id());
    }

    /** The stored review as a verdict, or {@code null} before there is one. */
    private static @Nullable Verdict verdict(Submission submission) {
        if (submission.review().state() != ReviewProgress.State.DONE
                || submission.aiGrade().isEmpty()) {
            return null;
        }
        ReviewOutcome outcome = submission.outcome();
        return new Verdict(
                submission.aiGrade(),
                outcome.criteria().stream().mapToInt(CriterionScore::points).sum(),
                outcome.criteria().stream().mapToInt(CriterionScore::maxPoints).sum(),
                outcome.criteria(),
                outcome.findings(),
                outcome.flags(),
                "",
                submission.analysis());
    }
}
