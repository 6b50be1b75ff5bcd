package com.chatreview.homework;

import com.chatreview.database.Sql;
import com.chatreview.tenancy.TenantId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code courses} table. */
@Repository
class Courses {

    private static final String COLUMNS = "id, tenant_id, teacher_id, name, created_at, updated_at";

    private final JdbcClient jdbc;

    Courses(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(Course course) {
        jdbc.sql("""
                INSERT INTO courses (id, tenant_id, teacher_id, name, created_at, updated_at)
                VALUES (:id, :tenant, :teacher, :name, :created, :updated)""")
                .param("id", course.id())
                .param("tenant", course.tenantId().value())
                .param("teacher", course.teacherId())
                .param("name", course.name())
                .param("created", Sql.at(course.createdAt()))
                .param("updated", Sql.at(course.updatedAt()))
                .update();
    }

    Optional<Course> find(UUID tenantId, UUID courseId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM courses WHERE id = :id AND tenant_id = :tenant")
                .param("id", courseId)
                .param("tenant", tenantId)
                .query(Courses::course)
                .optional();
    }

    List<Course> ofTeacher(UUID tenantId, @Nullable String teacherId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM courses WHERE tenant_id = :tenant"
                        + " AND (CAST(:teacher AS text) IS NULL OR teacher_id = :teacher)"
                        + " ORDER BY created_at DESC, id DESC")
                .param("tenant", tenantId)
                .param("teacher", teacherId)
                .query(Courses::course)
                .list();
    }

    static Course course(ResultSet rs, int row) throws SQLException {
        return new Course(
                rs.getObject("id", UUID.class),
                TenantId.of(rs.getObject("tenant_id", UUID.class)),
                rs.getString("teacher_id"),
                rs.getString("name"),
                Sql.instantNotNull(rs, "created_at"),
                Sql.instantNotNull(rs, "updated_at"));
    }
}
