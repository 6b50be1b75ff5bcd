package com.chatreview.privacy;

import java.util.Arrays;
import java.util.Optional;

/**
 * Every column that ties stored data to a tenant's user, in one place: how the user's rows are found from it, and
 * what the export of the user's data and its erasure do with them. A column that names a user ({@code user_id},
 * {@code student_id}, {@code teacher_id}, {@code decided_by}), or a foreign key to a table listed here, is listed:
 * {@code PersonalDataTests} fails on a new one that is not. Data that holds a user's words without naming them in a
 * column (a webhook delivery's payload, an idempotency record's response) is listed too, with what finds it.
 */
enum PersonalData {
    USERS("users", "user_id", Treatment.EXPORTED_AND_ERASED, "the user as the tenant's: when it was first seen"),
    CHATS("chats", "user_id", Treatment.EXPORTED_AND_ERASED, "the chats the user owns"),
    MESSAGES("messages", "chat_id", Treatment.EXPORTED_AND_ERASED, "every message of the user's chats"),
    MESSAGES_IN_OTHERS_CHATS(
            "messages",
            "metadata",
            Treatment.EMPTIED,
            "what the user wrote in other users' chats (metadata.user_id: a teacher in a student's chat), and the"
                    + " replies to it (metadata.in_reply_to_user_id), found by those; emptied where they stand"),
    AI_USAGE(
            "ai_usage",
            "user_id",
            Treatment.EXPORTED_AND_ANONYMIZED,
            "the AI usage of the user's replies and reviews; on erasure the rows stay for the tenant's totals, the"
                    + " user id replaced by the erasure's hash"),
    MODERATION_FLAGS(
            "moderation_flags",
            "user_id",
            Treatment.EXPORTED_AND_ERASED,
            "the flags the safety screening set on the user's messages: categories and severity, never the text"),
    USAGE_USER_DAYS(
            "usage_user_days", "user_id", Treatment.ERASED, "the tokens the user spent per day, for their daily cap"),
    SUBMISSIONS(
            "submissions",
            "student_id",
            Treatment.EXPORTED_AND_ERASED,
            "the user's submissions with their review: analysis, grade, criteria, findings, flags"),
    SUBMISSION_FILES(
            "submission_files",
            "submission_id",
            Treatment.EXPORTED_AND_ERASED,
            "the files of the user's submissions: names and extracted texts exported, content erased with them"),
    SUBMISSION_DECISIONS(
            "submission_decisions",
            "submission_id",
            Treatment.EXPORTED_AND_ERASED,
            "the teacher's decisions on the user's submissions"),
    DECISIONS_BY_A_TEACHER(
            "submission_decisions",
            "decided_by",
            Treatment.KEPT,
            "a decision is part of the student's submission record; decided_by names the teacher who made it"),
    REGRADE_REQUESTS(
            "regrade_requests",
            "submission_id",
            Treatment.EXPORTED_AND_ERASED,
            "the user's regrade requests on their submissions and the teacher's answers, exported within each"
                    + " submission"),
    REGRADES_ANSWERED_BY_A_TEACHER(
            "regrade_requests",
            "answered_by",
            Treatment.KEPT,
            "an answer is part of the student's submission record; answered_by names the teacher who gave it"),
    COURSES(
            "courses",
            "teacher_id",
            Treatment.KEPT,
            "a course is the school's material; teacher_id names the teacher who made it"),
    HOMEWORKS(
            "homeworks",
            "teacher_id",
            Treatment.KEPT,
            "a homework is the school's material; teacher_id names the teacher who published it"),
    WEBHOOK_DELIVERIES(
            "webhook_deliveries",
            "payload",
            Treatment.TOMBSTONED,
            "the events sent to the tenant's endpoints about the user's chats and submissions, found by their"
                    + " chat or submission id; the payload is replaced by a tombstone"),
    IDEMPOTENCY_RECORDS(
            "idempotency_records",
            "response_body",
            Treatment.ERASED,
            "the answers kept for a retried upload or chat creation of the user, found by the user id they show"),
    LTI_SESSIONS(
            "lti_sessions",
            "user_id",
            Treatment.ERASED,
            "a launch from the LMS: who launched (name and roles; not the email) from which course, for the tool's"
                    + " pages in the LMS; an hour at most"),
    LTI_GRADE_TARGETS(
            "lti_grade_targets",
            "user_id",
            Treatment.ERASED,
            "the LMS gradebook column a learner's scores of a homework go to, and their LMS user id (sub)"),
    LTI_SCORES(
            "lti_scores",
            "user_id",
            Treatment.ERASED,
            "the scores to send to the LMS gradebook, and those sent (their points and grade)"),
    LTI_PEOPLE(
            "lti_people",
            "user_id",
            Treatment.ERASED,
            "the name the LMS gave the user at their latest launch, for their teacher's page of a homework"),
    ERASURE_JOBS(
            "privacy_tasks",
            "task_data",
            Treatment.ERASED,
            "the user id of an erasure under way: the job's data, which goes with the job when the erasure ends");

    /** What the export and the erasure do with a column's rows. */
    enum Treatment {
        /** In the export; deleted by the erasure. */
        EXPORTED_AND_ERASED,
        /** In the export; kept by the erasure with the user id replaced by the erasure's hash. */
        EXPORTED_AND_ANONYMIZED,
        /** Not in the export (bookkeeping, or a copy of what is exported); deleted by the erasure. */
        ERASED,
        /** Not in the export; the payload replaced by a tombstone, the row kept for the delivery log. */
        TOMBSTONED,
        /**
         * Not in the export (it is part of another user's chat); the row kept in its place (the chat's order), its
         * content and metadata emptied.
         */
        EMPTIED,
        /** Not the user's data: the tenant's, naming the user as its author. */
        KEPT
    }

    private final String table;
    private final String column;
    private final Treatment treatment;
    private final String what;

    PersonalData(String table, String column, Treatment treatment, String what) {
        this.table = table;
        this.column = column;
        this.treatment = treatment;
        this.what = what;
    }

    String table() {
        return table;
    }

    String column() {
        return column;
    }

    Treatment treatment() {
        return treatment;
    }

    String what() {
        return what;
    }

    static Optional<PersonalData> of(String table, String column) {
        return Arrays.stream(values())
                .filter(entry -> entry.table.equals(table) && entry.column.equals(column))
                .findFirst();
    }
}
