-- Seeds the bench tenant straight into the migrated schema (run by rest-reads.sh with psql).
-- Variables: tenant_id (uuid of the tenant the admin API created), ids_file (where the chat ids go).
-- 10,000 chats over 100 users; 1,000,000 messages: chat n = 1 holds 200,000, chats 2..81 hold 81 and
-- chats 82..10,000 hold 80. chats.message_count and last_message_at match the messages.
\set ON_ERROR_STOP on
SET synchronous_commit = off;

CREATE TEMP TABLE bench_chats AS
SELECT n,
       gen_random_uuid() AS id,
       'bench-user-' || (n % 100) AS user_id,
       CASE WHEN n = 1 THEN 200000 WHEN n <= 81 THEN 81 ELSE 80 END AS n_msgs,
       timestamptz '2025-01-01 00:00:00+00' + n * interval '1 minute' AS created_at
FROM generate_series(1, 10000) AS n;

BEGIN;

INSERT INTO users (tenant_id, user_id, created_at)
SELECT :'tenant_id'::uuid, 'bench-user-' || u, timestamptz '2025-01-01 00:00:00+00'
FROM generate_series(0, 99) AS u;

INSERT INTO chats (id, tenant_id, user_id, title, title_given, config, status, created_at, updated_at,
                   last_message_at, message_count)
SELECT id, :'tenant_id'::uuid, user_id, 'Bench chat ' || n, true,
       jsonb_build_object('metadata', jsonb_build_object('course', 'bench', 'n', n)),
       'active', created_at, created_at + n_msgs * interval '1 second',
       created_at + n_msgs * interval '1 second', n_msgs
FROM bench_chats
ORDER BY n;

-- Messages of a chat are stored together, in position order (one chat after the other).
INSERT INTO messages (chat_id, position, id, sender_role, content, media_type, media_url, metadata,
                      client_message_id, created_at)
SELECT c.id, p, gen_random_uuid(),
       CASE WHEN p % 2 = 1 THEN 'user' ELSE 'assistant' END,
       'Message ' || p || ' of chat ' || c.n || ': a question or an answer about the homework, long enough'
           || ' to look like a real chat message, with a few more words to reach about 150 characters.',
       NULL, NULL, '{}'::jsonb, NULL,
       c.created_at + p * interval '1 second'
FROM bench_chats AS c
CROSS JOIN LATERAL generate_series(1, c.n_msgs) AS p
ORDER BY c.n, p;

COMMIT;

-- the chat ids, big chat first, for the wrk helpers
\pset tuples_only on
\pset format unaligned
\o :ids_file
SELECT id FROM bench_chats ORDER BY n;
\o
