-- Waiting reviews start round-robin by tenant (decisions: fair shares). db-scheduler picks due jobs by priority
-- (highest first), then execution_time: a waiting review job's priority is minus its place in its tenant's line
-- (-1 for the next one, never below -30000: priority is a smallint), and the head of a line carries the time it got
-- there, so heads of different tenants take turns. A retry waiting out its backoff has priority 0 and no place in
-- the line. tenant_id says whose line a job stands in.
ALTER TABLE scheduled_tasks ADD COLUMN tenant_id uuid;

UPDATE scheduled_tasks t
SET tenant_id = s.tenant_id
FROM submissions s
WHERE t.task_name = 'review-submission' AND t.task_instance = s.id::text;

UPDATE scheduled_tasks t
SET priority = -LEAST(30000, ranked.place)
FROM (SELECT task_name, task_instance,
             row_number() OVER (PARTITION BY tenant_id ORDER BY execution_time, task_instance) AS place
      FROM scheduled_tasks
      WHERE NOT picked AND tenant_id IS NOT NULL) ranked
WHERE t.task_name = ranked.task_name AND t.task_instance = ranked.task_instance;

UPDATE scheduled_tasks SET priority = 0 WHERE priority IS NULL;

CREATE INDEX scheduled_tasks_waiting_by_tenant ON scheduled_tasks (tenant_id, priority) WHERE NOT picked;
