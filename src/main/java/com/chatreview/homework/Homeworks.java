package com.chatreview.homework;

import com.chatreview.database.Sql;
import com.chatreview.grading.Rubric;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.TenantId;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code homeworks} and {@code homework_files} tables; an assignment is read with its files and course. The
 * teacher's rubric is {@code homeworks.rubric} (jsonb, in the shape of {@link StoredRubric}); {@code NULL} when the
 * teacher gave none, so that such an assignment is graded against the default rubric of the day.
 */
@Repository
class Homeworks {

    private static final String SELECT = """
            SELECT h.id, h.tenant_id, h.teacher_id, h.assignment_id, h.subject, h.course_id, h.created_at,
                   h.updated_at, h.rubric::text AS rubric, h.test_timeout_seconds, c.id AS c_id, c.tenant_id AS c_tenant_id,
                   c.teacher_id AS c_teacher_id, c.name AS c_name, c.created_at AS c_created_at,
                   c.updated_at AS c_updated_at
            FROM homeworks h JOIN courses c ON c.id = h.course_id
            """;

    private final JdbcClient jdbc;
    private final JsonMapper json;

    Homeworks(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /**
     * Stores the assignment with its files; its rubric only when {@code rubricGiven} (the teacher's own), otherwise
     * {@code NULL}.
     */
    void insert(Homework homework, boolean rubricGiven) {
        jdbc.sql("""
                INSERT INTO homeworks (id, tenant_id, teacher_id, assignment_id, subject, course_id, created_at,
                                       updated_at, rubric, test_timeout_seconds)
                VALUES (:id, :tenant, :teacher, :assignment, :subject, :course, :created, :updated,
                        CAST(:rubric AS jsonb), :testTimeout)""")
                .param("id", homework.id().value())
                .param("tenant", homework.tenantId().value())
                .param("teacher", homework.teacherId())
                .param("assignment", homework.assignmentId())
                .param("subject", homework.subject())
                .param("course", homework.courseId())
                .param("created", Sql.at(homework.createdAt()))
                .param("updated", Sql.at(homework.updatedAt()))
                .param("rubric", rubricGiven ? json.writeValueAsString(StoredRubric.of(homework.rubric())) : null)
                .param("testTimeout", homework.testTimeoutSeconds())
                .update();
        int position = 0;
        for (HomeworkFile file : homework.files()) {
            jdbc.sql("""
                    INSERT INTO homework_files (id, homework_id, position, file_type, file_name, file_path, content,
                                                created_at, updated_at)
                    VALUES (:id, :homework, :position, :type, :name, :path, :content, :created, :updated)""")
                    .param("id", file.id())
                    .param("homework", homework.id().value())
                    .param("position", ++position)
                    .param("type", file.fileType().value())
                    .param("name", file.fileName())
                    .param("path", file.filePath())
                    .param("content", file.content())
                    .param("created", Sql.at(file.createdAt()))
                    .param("updated", Sql.at(file.updatedAt()))
                    .update();
        }
    }

    Optional<Homework> find(UUID tenantId, HomeworkId homeworkId) {
        List<Homework> found = withFiles(jdbc.sql(SELECT + " WHERE h.id = :id AND h.tenant_id = :tenant")
                .param("id", homeworkId.value())
                .param("tenant", tenantId)
                .query(this::homework)
                .list());
        return found.stream().findFirst();
    }

    record Found(List<Homework> page, long total) {}

    /** The page of assignments matching the query, newest first (then by id, descending). */
    Found find(UUID tenantId, HomeworkQuery query, @Nullable List<UUID> courseIds, PageRequest page) {
        StringBuilder where = new StringBuilder(" WHERE h.tenant_id = :tenant");
        Map<String, Object> params = new HashMap<>();
        params.put("tenant", tenantId);
        if (query.teacherId() != null && !query.teacherId().isEmpty()) {
            where.append(" AND h.teacher_id = :teacher");
            params.put("teacher", query.teacherId());
        }
        if (courseIds != null) {
            if (courseIds.isEmpty()) {
                return new Found(List.of(), 0);
            }
            where.append(" AND h.course_id IN (:courses)");
            params.put("courses", courseIds);
        }
        if (query.search() != null && !query.search().isBlank()) {
            // a text block loses its leading indentation: the space before AND has to be written out
            where.append(' ').append("""
                     AND (h.assignment_id ILIKE :pattern ESCAPE '\\' OR h.subject ILIKE :pattern ESCAPE '\\'
                          OR c.name ILIKE :pattern ESCAPE '\\'
                          OR EXISTS (SELECT 1 FROM homework_files f
                                     WHERE f.homework_id = h.id AND f.file_name ILIKE :pattern ESCAPE '\\'))""");
            params.put("pattern", "%" + likeEscaped(query.search().strip()) + "%");
        }
        long total = jdbc.sql("SELECT count(*) FROM homeworks h JOIN courses c ON c.id = h.course_id" + where)
                .params(params)
                .query(Long.class)
                .single();
        if (total == 0 || page.offset() >= total) {
            return new Found(List.of(), total);
        }
        params.put("offset", page.offset());
        params.put("limit", page.limit());
        List<Homework> homeworks = jdbc.sql(
                        SELECT + where + " ORDER BY h.created_at DESC, h.id DESC OFFSET :offset LIMIT :limit")
                .params(params)
                .query(this::homework)
                .list();
        return new Found(withFiles(homeworks), total);
    }

    private List<Homework> withFiles(List<Homework> homeworks) {
        if (homeworks.isEmpty()) {
            return homeworks;
        }
        Map<HomeworkId, List<HomeworkFile>> files = jdbc
                .sql("""
                        SELECT id, homework_id, file_type, file_name, file_path, content, created_at, updated_at
                        FROM homework_files WHERE homework_id IN (:ids) ORDER BY homework_id, position""")
                .param(
                        "ids",
                        homeworks.stream()
                                .map(homework -> homework.id().value())
                                .toList())
                .query(Homeworks::file)
                .list()
                .stream()
                .collect(Collectors.groupingBy(HomeworkFile::homeworkId, LinkedHashMap::new, Collectors.toList()));
        List<Homework> complete = new ArrayList<>(homeworks.size());
        for (Homework h : homeworks) {
            complete.add(new Homework(
                    h.id(),
                    h.tenantId(),
                    h.teacherId(),
                    h.assignmentId(),
                    h.subject(),
                    h.courseId(),
                    h.createdAt(),
                    h.updatedAt(),
                    files.getOrDefault(h.id(), List.of()),
                    h.course(),
                    h.rubric(),
                    h.testTimeoutSeconds()));
        }
        return complete;
    }

    /**
     * The stored form of a rubric, written and read here rather than {@link Rubric}'s own shape, so that a change to
     * the grading type does not silently change what the column holds.
     */
    record StoredRubric(List<StoredCriterion> criteria) {

        static StoredRubric of(Rubric rubric) {
            return new StoredRubric(rubric.criteria().stream()
                    .map(c -> new StoredCriterion(
                            c.id(), c.title(), c.description(), c.maxPoints(), c.tests() ? Boolean.TRUE : null))
                    .toList());
        }

        Rubric rubric() {
            return new Rubric(criteria.stream()
                    .map(c -> new Rubric.Criterion(
                            c.id(), c.title(), c.description(), c.maxPoints(), Boolean.TRUE.equals(c.tests())))
                    .toList());
        }
    }

    /** {@code tests} is left out of the stored JSON unless true, as rubrics stored before it were written. */
    record StoredCriterion(
            String id,
            String title,
            @Nullable String description,
            int maxPoints,

            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
            Boolean tests) {}

    static String likeEscaped(String term) {
        return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private Homework homework(ResultSet rs, int row) throws SQLException {
        Course course = new Course(
                rs.getObject("c_id", UUID.class),
                TenantId.of(rs.getObject("c_tenant_id", UUID.class)),
                rs.getString("c_teacher_id"),
                rs.getString("c_name"),
                Sql.instantNotNull(rs, "c_created_at"),
                Sql.instantNotNull(rs, "c_updated_at"));
        return new Homework(
                HomeworkId.of(rs.getObject("id", UUID.class)),
                TenantId.of(rs.getObject("tenant_id", UUID.class)),
                rs.getString("teacher_id"),
                rs.getString("assignment_id"),
                rs.getString("subject"),
                rs.getObject("course_id", UUID.class),
                Sql.instantNotNull(rs, "created_at"),
                Sql.instantNotNull(rs, "updated_at"),
                List.of(),
                course,
                rubric(rs.getString("rubric")),
                rs.getInt("test_timeout_seconds"));
    }

    /** The stored rubric, or {@link Rubric#DEFAULT} when the teacher gave none. */
    private Rubric rubric(@Nullable String stored) {
        return stored == null
                ? Rubric.DEFAULT
                : json.readValue(stored, StoredRubric.class).rubric();
    }

    private static HomeworkFile file(ResultSet rs, int row) throws SQLException {
        return new HomeworkFile(
                rs.getObject("id", UUID.class),
                HomeworkId.of(rs.getObject("homework_id", UUID.class)),
                HomeworkFile.FileType.of(rs.getString("file_type")).orElseThrow(),
                rs.getString("file_name"),
                rs.getString("file_path"),
                rs.getString("content"),
                Sql.instantNotNull(rs, "created_at"),
                Sql.instantNotNull(rs, "updated_at"));
    }
}
