package com.chatreview.submission.json;

import com.chatreview.chatui.ChatUi;
import com.chatreview.privacy.UserDataExporter;
import com.chatreview.submission.ExtractedText;
import com.chatreview.submission.FileText;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.submission.json.SubmissionBodies.SubmissionBody;
import com.chatreview.tenancy.TenantId;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import tools.jackson.core.JsonGenerator;

/**
 * The submission module's section of a user's data export, {@code submissions}: each submission whose
 * {@code studentId} is the user, as the homework endpoints show it (its files, review and the teacher's decisions),
 * with the text of each file as the review read it.
 */
@Component
@Order(3)
class SubmissionDataExporter implements UserDataExporter {

    private final SubmissionManagement submissions;
    private final ChatUi chatUi;

    SubmissionDataExporter(SubmissionManagement submissions, ChatUi chatUi) {
        this.submissions = submissions;
        this.chatUi = chatUi;
    }

    /** A submission as the homework endpoints show it, and its files' texts. */
    record ExportedSubmission(@JsonUnwrapped SubmissionBody submission, List<FileTextBody> texts) {}

    /**
     * @param text what the review read of the file; {@code null} before the text was extracted
     * @param notOpened why the file's text could not be read, when it could not
     */
    record FileTextBody(
            String fileId,
            String fileName,
            @Nullable String text,
            boolean truncated,
            @Nullable String notOpened) {

        static FileTextBody of(FileText file) {
            ExtractedText text = file.text();
            return new FileTextBody(
                    file.file().id().toString(),
                    file.file().fileName(),
                    text == null ? null : text.text(),
                    text != null && text.truncated(),
                    text == null ? null : text.notOpened());
        }
    }

    @Override
    public String section() {
        return "submissions";
    }

    @Override
    public Set<String> tables() {
        return Set.of("submissions", "submission_files", "submission_decisions", "regrade_requests");
    }

    @Override
    public boolean holdsDataOf(TenantId tenantId, String userId) {
        return submissions.hasSubmissionsOf(tenantId, userId);
    }

    @Override
    public void export(TenantId tenantId, String userId, JsonGenerator json) {
        String chatUiUrl = SubmissionBodies.chatUiUrl(chatUi);
        json.writeStartArray();
        submissions.forEachSubmissionOf(tenantId, userId, submission -> {
            json.writePOJO(new ExportedSubmission(
                    SubmissionBodies.body(submission, chatUiUrl),
                    submissions.fileTexts(submission).stream()
                            .map(FileTextBody::of)
                            .toList()));
            json.flush();
        });
        json.writeEndArray();
    }
}
