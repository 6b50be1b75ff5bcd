CREATE TABLE courses (
    id          uuid PRIMARY KEY,
    tenant_id   uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    teacher_id  text        NOT NULL,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);

CREATE INDEX courses_by_teacher ON courses (tenant_id, teacher_id, created_at);

CREATE TABLE homeworks (
    id             uuid PRIMARY KEY,
    tenant_id      uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    teacher_id     text        NOT NULL,
    assignment_id  text        NOT NULL,
    subject        text,
    course_id      uuid        NOT NULL REFERENCES courses (id),
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL
);

CREATE INDEX homeworks_listing ON homeworks (tenant_id, created_at DESC, id DESC);
CREATE INDEX homeworks_by_course ON homeworks (course_id);

CREATE TABLE homework_files (
    id           uuid PRIMARY KEY,
    homework_id  uuid        NOT NULL REFERENCES homeworks (id) ON DELETE CASCADE,
    position     integer     NOT NULL,
    file_type    text        NOT NULL CHECK (file_type IN ('task', 'solution', 'restriction')),
    file_name    text        NOT NULL,
    file_path    text        NOT NULL,
    content      text        NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    UNIQUE (homework_id, position)
);
