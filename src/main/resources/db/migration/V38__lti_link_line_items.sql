-- The gradebook column the tool made for a resource link whose launches name none (docs/lti.md, Grades): found or
-- made once per link and homework, then every learner's launch of the link sends scores there.
CREATE TABLE lti_link_line_items (
    platform_id      uuid        NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    resource_link_id text        NOT NULL,
    homework_id      uuid        NOT NULL,
    line_item_url    text        NOT NULL,
    created_at       timestamptz NOT NULL,
    PRIMARY KEY (platform_id, resource_link_id, homework_id)
);
