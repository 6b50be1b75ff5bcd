-- Erasures before V49's release looked for a submission's webhook deliveries by its bare id, while they are ordered
-- (and found) by 'submission:{id}': the deliveries of submissions erased then kept their payloads (studentId, grade).
-- Each delivery of a submission that no longer exists is replaced by its tombstone now, as an erasure does it.
UPDATE webhook_deliveries d
SET payload = '{"type":' || to_json(d.event_type)::text
              || ',"timestamp":' || (d.payload::json -> 'timestamp')::text
              || ',"data":{"erased":true}}'
WHERE d.ordering_key LIKE 'submission:%'
  AND d.payload::jsonb -> 'data' ->> 'erased' IS NULL
  AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.id::text = substring(d.ordering_key from 12));
