#!/usr/bin/env bash
# A user's data export (GET /api/v1/users/{user_id}/export): the time and the service's heap while it streams the
# data of users with more and more messages, each also with 100 reviewed submissions. Constant memory is the claim:
# the heap's peak during an export does not grow with the user's data, and an export larger than the whole heap
# goes through. See docs/benchmarks.md, section "Data export".
#
#   bench/export.sh
#
# Settings (environment, all optional):
#   BENCH_PORT=18186          port of the service (127.0.0.1 only)
#   BENCH_DB=crs_bench_export database created, then dropped, on the local PostgreSQL (127.0.0.1:5432, user postgres)
#   PGPORT=5432 PGUSER=postgres
#   SIZES="1000 10000 100000" messages of each user exported (one user per size), in chats of 1,000
#   MESSAGE_CHARS=500         characters of each message
#   SUBMISSIONS=100           reviewed submissions of each user (uploaded through the API, one 4 KiB file each)
#   ROUNDS=2                  exports of each user (the first warms the JIT; every round is printed)
#   JAVA_OPTS="-Xmx128m"      JVM options of the service: a heap smaller than the largest export
#   KEEP_DB=1                 keeps the database at the end
#
# Raw outputs go to bench/results/<date>-export/ (not committed); the summary is printed at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PORT="${BENCH_PORT:-18186}"
DB="${BENCH_DB:-crs_bench_export}"
PGHOST=127.0.0.1
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
SIZES="${SIZES:-1000 10000 100000}"
MESSAGE_CHARS="${MESSAGE_CHARS:-500}"
SUBMISSIONS="${SUBMISSIONS:-100}"
ROUNDS="${ROUNDS:-2}"
JAVA_OPTS="${JAVA_OPTS:--Xmx128m}"
BASE="http://127.0.0.1:$PORT"
RUN_DIR="$ROOT/bench/results/$(date +%Y%m%d-%H%M%S)-export"
SERVICE_PID=""

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"

need_tools curl jq psql pg_isready python3 jcmd
find_jdk
check_database
check_port_free "$BASE" BENCH_PORT
build_jar_if_missing
mkdir -p "$RUN_DIR"
trap 'stop_service; drop_or_keep_database' EXIT
machine_facts shared_buffers work_mem > "$RUN_DIR/machine.txt"

recreate_database
ADMIN_TOKEN=$(random_token)
log "starting the service on $BASE ($JAVA_OPTS)"
# shellcheck disable=SC2086
start_jar "$PORT" "$RUN_DIR/service.log" ASSISTANT_OFFLINETOKENDELAY=0ms $JAVA_OPTS
SERVICE_PID=$!
wait_healthy 90
create_tenant export
log "tenant $TENANT_ID"

# ---------------------------------------------------------------------------------------------------------
# The users: messages straight into the schema, submissions through the API (reviewed by the offline reviewer)
# ---------------------------------------------------------------------------------------------------------
seed_messages() {   # $1 = user, $2 = messages
  psql_db -v tenant="$TENANT_ID" -v user="$1" -v messages="$2" -v chars="$MESSAGE_CHARS" <<'SQL'
SET synchronous_commit = off;
INSERT INTO users (tenant_id, user_id, created_at) VALUES (:'tenant', :'user', now()) ON CONFLICT DO NOTHING;
CREATE TEMP TABLE seeded AS
SELECT n, gen_random_uuid() AS id, least(1000, :messages - (n - 1) * 1000) AS n_msgs,
       now() - interval '30 days' + n * interval '1 minute' AS created_at
FROM generate_series(1, ceil(:messages / 1000.0)::int) AS n;
INSERT INTO chats (id, tenant_id, user_id, title, title_given, config, status, created_at, updated_at,
                   last_message_at, message_count)
SELECT id, :'tenant', :'user', 'Chat ' || n, true, '{"metadata": {}}', 'active', created_at, created_at,
       created_at + n_msgs * interval '1 second', n_msgs
FROM seeded;
INSERT INTO messages (chat_id, position, id, sender_role, content, media_type, media_url, metadata,
                      client_message_id, created_at)
SELECT s.id, p, gen_random_uuid(), CASE WHEN p % 2 = 1 THEN 'user' ELSE 'assistant' END,
       rpad('Message ' || p || ' of chat ' || s.n || ': ', :chars, ' a question or an answer about the homework'),
       NULL, NULL, '{}', NULL, s.created_at + p * interval '1 second'
FROM seeded s, generate_series(1, s.n_msgs) AS p;
DROP TABLE seeded;
SQL
}

post_json() {   # $1 = path of the homework API, $2 = body: the 201's body; stops the script with the answer otherwise
  local out
  out=$(curl -s -w '\n%{http_code}' -X POST "$BASE$1" -H "x-tenant-api-secret: $API_KEY" -H 'Content-Type: application/json' \
    -d "$2")
  [ "${out##*$'\n'}" = 201 ] || die "POST $1 was answered: $out"
  echo "${out%$'\n'*}"
}
COURSE=$(post_json /v1/courses '{"teacherId": "t-1", "name": "Export"}' | jq -r .id)
HOMEWORK=$(post_json /v1/homeworks "{\"teacherId\": \"t-1\", \"courseId\": \"$COURSE\", \"assignmentId\": \"export-1\",
  \"files\": [{\"fileType\": \"task\", \"fileName\": \"task.md\", \"content\": \"Sum the numbers of a list.\"}]}" | jq -r .id)
[ -n "$HOMEWORK" ] && [ "$HOMEWORK" != null ] || die "no homework was published"
SOLUTION="$RUN_DIR/solution.py"
python3 - "$SOLUTION" <<'PY'
import sys
lines = ["def total(numbers):", "    result = 0", "    for n in numbers:", "        result += n", "    return result", ""]
body = "\n".join(lines)
with open(sys.argv[1], "w") as f:
    i = 0
    while f.tell() < 4096:
        f.write(body.replace("total", "total_%d" % i) + "\n")
        i += 1
PY

for size in $SIZES; do
  user="student-$size"
  log "seeding $user: $size messages"
  seed_messages "$user" "$size"
  log "uploading $SUBMISSIONS submissions of $user"
  for i in $(seq 1 "$SUBMISSIONS"); do
    curl -sf -o /dev/null -X POST "$BASE/v1/homeworks/$HOMEWORK/submissions" -H "x-tenant-api-secret: $API_KEY" \
      -F "studentId=$user" -F "files=@$SOLUTION;type=text/x-python;filename=solution_$i.py" \
      || die "upload $i of $user was refused"
  done
done
log "waiting for the reviews"
for _ in $(seq 1 600); do
  left=$(psql_db -At -c "SELECT count(*) FROM submissions WHERE review_state <> 'done'")
  [ "$left" = 0 ] && break
  sleep 1
done
[ "$left" = 0 ] || die "$left reviews are not done after 10 minutes"

# ---------------------------------------------------------------------------------------------------------
# The exports: each after a full GC, the heap sampled every 50 ms while it runs
# ---------------------------------------------------------------------------------------------------------
heap_used_mib() {
  prom | awk '/^jvm_memory_used_bytes\{area="heap"/ {s+=$NF} END {printf "%.1f", s/1048576}'
}

SUMMARY="$RUN_DIR/summary.txt"
printf '%-14s %6s %9s %10s %8s %9s %14s %15s\n' user round messages bytes seconds "MiB/s" "heap after GC" "heap peak (MiB)" \
  | tee "$SUMMARY"
for size in $SIZES; do
  user="student-$size"
  for round in $(seq 1 "$ROUNDS"); do
    jcmd "$SERVICE_PID" GC.run > /dev/null
    sleep 1
    rest=$(heap_used_mib)
    samples="$RUN_DIR/heap-$size-$round.txt"
    : > "$samples"
    ( while :; do heap_used_mib >> "$samples"; echo >> "$samples"; sleep 0.05; done ) &
    sampler=$!
    out="$RUN_DIR/export-$size.json"
    timing=$(curl -sf -o "$out" -w '%{time_total} %{size_download}' -H "X-API-Key: $API_KEY" \
      "$BASE/api/v1/users/$user/export") || die "the export of $user failed"
    kill "$sampler"; wait "$sampler" 2>/dev/null || true
    read -r seconds bytes <<<"$timing"
    counted=$(python3 -c '
import json, sys
data = json.load(open(sys.argv[1]))
print(sum(len(c["messages"]) for c in data["chats"]), len(data["submissions"]))' "$out")
    read -r messages submissions <<<"$counted"
    [ "$submissions" = "$SUBMISSIONS" ] || die "the export of $user has $submissions submissions, not $SUBMISSIONS"
    peak=$(sort -n "$samples" | tail -1)
    printf '%-14s %6s %9s %10s %8.2f %9.1f %14s %15s\n' "$user" "$round" "$messages" "$bytes" "$seconds" \
      "$(awk -v b="$bytes" -v s="$seconds" 'BEGIN {print b / 1048576 / s}')" "$rest" "$peak" | tee -a "$SUMMARY"
  done
done
echo "messages counts every message of the user's chats: the seeded ones plus the $SUBMISSIONS review chats'" \
  | tee -a "$SUMMARY"
load_line | tee -a "$SUMMARY"
echo "OutOfMemoryError in the service log: $(grep -c 'OutOfMemoryError' "$RUN_DIR/service.log" || true)" | tee -a "$SUMMARY"
