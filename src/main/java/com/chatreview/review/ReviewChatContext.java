package com.chatreview.review;

import com.chatreview.assistant.Conversation.ContextDocument;
import com.chatreview.chat.Chat;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.realtime.ChatContextSource;
import com.chatreview.submission.SubmissionsForReview;
import com.chatreview.tenancy.TenantId;
import com.chatreview.web.Ids;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * A review chat's questions are answered with the homework's task and restrictions and the student's files in
 * the assistant's context (not the reference solution: no answer may hand it out).
 */
@Component
class ReviewChatContext implements ChatContextSource {

    /** The chat settings a submission's review chat carries (decisions §5). */
    static final String KIND = "homework_review";

    private final SubmissionsForReview submissions;
    private final HomeworkCatalog homeworks;
    private final ReviewSettings settings;
    private final JsonMapper json;

    ReviewChatContext(
            SubmissionsForReview submissions, HomeworkCatalog homeworks, ReviewSettings settings, JsonMapper json) {
        this.submissions = submissions;
        this.homeworks = homeworks;
        this.settings = settings;
        this.json = json;
    }

    @Override
    public List<ContextDocument> documentsFor(Chat chat) {
        return reviewedSubmission(chat)
                .flatMap(submissions::find)
                .filter(submission -> submission.tenantId().equals(chat.tenantId()))
                .flatMap(submission -> homeworks
                        .find(TenantId.of(chat.tenantId()), submission.homeworkId())
                        .map(homework -> ReviewMaterial.chatContext(
                                homework, submissions.texts(submission.id(), settings.maxCharsPerFile()))))
                .orElse(List.of());
    }

    private Optional<UUID> reviewedSubmission(Chat chat) {
        if (!chat.config().contains(KIND)) {
            return Optional.empty();
        }
        Map<?, ?> config = json.readValue(chat.config(), Map.class);
        if (!KIND.equals(config.get("kind")) || !(config.get("submission_id") instanceof String id)) {
            return Optional.empty();
        }
        return Ids.uuid(id);
    }
}
