package com.chatreview.submission;

import com.chatreview.database.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code regrade_requests} table. */
@Repository
class RegradeRequests {

    private static final String COLUMNS =
            "id, submission_id, criterion_id, message, state, answer, created_at, answered_at, answered_by";

    private final JdbcClient jdbc;

    RegradeRequests(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(RegradeRequest request) {
        jdbc.sql("""
                INSERT INTO regrade_requests (id, submission_id, criterion_id, message, state, created_at)
                VALUES (:id, :submission, :criterion, :message, 'open', :created)""")
                .param("id", request.id())
                .param("submission", request.submissionId().value())
                .param("criterion", request.criterionId())
                .param("message", request.message())
                .param("created", Sql.at(request.createdAt()))
                .update();
    }

    int openCount(SubmissionId submissionId) {
        return jdbc.sql("SELECT count(*) FROM regrade_requests WHERE submission_id = :submission AND state = 'open'")
                .param("submission", submissionId.value())
                .query(Integer.class)
                .single();
    }

    Optional<RegradeRequest> find(SubmissionId submissionId, UUID requestId, boolean forUpdate) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM regrade_requests WHERE id = :id AND submission_id = :submission"
                        + (forUpdate ? " FOR UPDATE" : ""))
                .param("id", requestId)
                .param("submission", submissionId.value())
                .query(RegradeRequests::request)
                .optional();
    }

    /** @return false when it was answered already */
    boolean answer(UUID requestId, String answer, @Nullable String answeredBy, Instant at) {
        return jdbc.sql("""
                        UPDATE regrade_requests SET state = 'answered', answer = :answer, answered_by = :by,
                                                    answered_at = :at
                        WHERE id = :id AND state = 'open'""")
                        .param("answer", answer)
                        .param("by", answeredBy)
                        .param("at", Sql.at(at))
                        .param("id", requestId)
                        .update()
                == 1;
    }

    /** Whether the answer is in the review chat already (a job run again must not post it twice). */
    boolean inChat(UUID requestId) {
        return jdbc.sql("SELECT chat_message_id IS NOT NULL FROM regrade_requests WHERE id = :id")
                .param("id", requestId)
                .query(Boolean.class)
                .optional()
                .orElse(true);
    }

    void postedAs(UUID requestId, UUID messageId) {
        jdbc.sql("UPDATE regrade_requests SET chat_message_id = :message WHERE id = :id")
                .param("message", messageId)
                .param("id", requestId)
                .update();
    }

    /** The submissions' requests, oldest first. */
    Map<UUID, List<RegradeRequest>> of(List<UUID> submissionIds) {
        return jdbc
                .sql("SELECT " + COLUMNS + " FROM regrade_requests WHERE submission_id IN (:ids)"
                        + " ORDER BY submission_id, created_at, id")
                .param("ids", submissionIds)
                .query(RegradeRequests::request)
                .list()
                .stream()
                .collect(Collectors.groupingBy(
                        request -> request.submissionId().value(), LinkedHashMap::new, Collectors.toList()));
    }

    private static RegradeRequest request(ResultSet rs, int row) throws SQLException {
        return new RegradeRequest(
                rs.getObject("id", UUID.class),
                SubmissionId.of(rs.getObject("submission_id", UUID.class)),
                rs.getString("criterion_id"),
                rs.getString("message"),
                RegradeRequest.State.of(rs.getString("state")),
                rs.getString("answer"),
                Sql.instantNotNull(rs, "created_at"),
                Sql.instant(rs, "answered_at"),
                rs.getString("answered_by"));
    }
}
