#!/usr/bin/env bash
# Webhook benchmark (issue 13): how many events one node delivers per second to a fast receiver (nginx answering 204),
# from a recorded backlog and while events are being produced, with the service's CPU per delivery; and what
# recording the events adds to the change that causes them (homework upload latency, a tenant with no endpoint vs a
# tenant with one endpoint for submission.*, alternating in one run). See docs/benchmarks.md, section "Webhooks".
#
#   bench/webhooks.sh
#
# Settings (environment, all optional):
#   BENCH_PORT=18190            port of the service (127.0.0.1 only); nginx gets BENCH_PORT+1
#   BENCH_DB=crs_bench_webhooks database created, then dropped, on the local PostgreSQL (127.0.0.1:5432, postgres)
#   PGPORT=5432 PGUSER=postgres
#   RUNS="drain live upload"    which parts to run
#   N=20000                     chat.deleted events of the backlog (drain)
#   LIVE_N=5000                 chat.deleted events produced while the deliverer runs (live)
#   CONCURRENCY=8               client workers creating and deleting chats
#   UPLOADS=500 UPLOAD_WARMUP=50  measured sequential uploads per tenant (after the warm-up ones), alternating A/B
#   REVIEW_CONCURRENCY=4 ASSISTANT_OFFLINETOKENDELAY=15ms  the service's defaults: the review after each upload
#   JAVA_OPTS=                  JVM options of the service
#   LABEL=name                  added to the results directory name
#   KEEP_DB=1                   keeps the database at the end
# Any other variable of the service (DATABASE_POOL_SIZE...) passes through to it.
#
# Raw outputs go to bench/results/<date>-webhooks<-label>/ (not committed); the summary is printed at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
cd "$ROOT"

PORT="${BENCH_PORT:-18190}"
NGINX_PORT=$((PORT + 1))
DB="${BENCH_DB:-crs_bench_webhooks}"
PGHOST=127.0.0.1
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
RUNS="${RUNS:-drain live upload}"
N="${N:-20000}"
LIVE_N="${LIVE_N:-5000}"
CONCURRENCY="${CONCURRENCY:-8}"
UPLOADS="${UPLOADS:-500}"
UPLOAD_WARMUP="${UPLOAD_WARMUP:-50}"
REVIEW_CONCURRENCY="${REVIEW_CONCURRENCY:-4}"
ASSISTANT_OFFLINETOKENDELAY="${ASSISTANT_OFFLINETOKENDELAY:-15ms}"
SERVICE_OPTS="${JAVA_OPTS:-}"
BASE="http://127.0.0.1:$PORT"
RECEIVER="http://127.0.0.1:$NGINX_PORT/hook"
STAMP="$(date +%Y%m%d-%H%M%S)"
RUN_DIR="$BENCH_DIR/results/$STAMP-webhooks${LABEL:+-$LABEL}"
SERVICE_PID=""
NGINX_PID=""

# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"

need_tools curl jq psql nginx
find_jdk 22
[ -f "$JAR" ] || die "no $JAR: build it first (./mvnw -B -o -q package -DskipTests -Djacoco.skip=true)"
for p in "$PORT" "$NGINX_PORT"; do
  check_port_free "http://127.0.0.1:$p" BENCH_PORT
done
check_database

mkdir -p "$RUN_DIR"
log "results in $RUN_DIR"

STOP_WAIT=45   # seconds stop_pid waits before KILL (lib.sh): the service waits up to 30 s for reviews in progress

cleanup() {
  local status=$?
  set +e
  stop_service
  if [ -n "$NGINX_PID" ]; then log "stopping nginx (pid $NGINX_PID)"; stop_pid "$NGINX_PID"; fi
  drop_or_keep_database
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

{
  machine_facts shared_buffers max_connections synchronous_commit fsync wal_level
  echo "service JAVA_OPTS: ${SERVICE_OPTS:-(none)}"
  echo "N=$N LIVE_N=$LIVE_N CONCURRENCY=$CONCURRENCY UPLOADS=$UPLOADS UPLOAD_WARMUP=$UPLOAD_WARMUP REVIEW_CONCURRENCY=$REVIEW_CONCURRENCY ASSISTANT_OFFLINETOKENDELAY=$ASSISTANT_OFFLINETOKENDELAY"
  echo "nginx: $(nginx -v 2>&1)"
  echo "git status of the worktree:"; git -C "$ROOT" status --short | head -20
} > "$RUN_DIR/environment.txt"

# ---------------------------------------------------------------------------------------------------------
# The receiver: nginx of our own, in the foreground, answering 204 to every POST
# ---------------------------------------------------------------------------------------------------------
mkdir -p "$RUN_DIR/nginx"
cat > "$RUN_DIR/nginx/site.conf" <<EOF
keepalive_requests 1000000;
server {
    listen 127.0.0.1:$NGINX_PORT;
    location / { return 204; }
}
EOF
run_nginx
for _ in $(seq 1 100); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$RECEIVER" 2>/dev/null)" = 204 ] && break
  kill -0 "$NGINX_PID" 2>/dev/null || { cat "$RUN_DIR/nginx/nginx.log" >&2; die "nginx exited"; }
  sleep 0.05
done
log "nginx (pid $NGINX_PID) answers 204 on $RECEIVER"

# ---------------------------------------------------------------------------------------------------------
# The service
# ---------------------------------------------------------------------------------------------------------
recreate_database
ADMIN_TOKEN=$(random_token)
mkdir -p "$RUN_DIR/data"
# shellcheck disable=SC2086
start_jar "$PORT" "$RUN_DIR/service.log" \
  DATA_DIR="$RUN_DIR/data" \
  WEBHOOK_ALLOW_HTTP=true \
  WEBHOOK_ALLOW_PRIVATE_NETWORKS=true \
  WEBHOOK_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" \
  REVIEW_CONCURRENCY="$REVIEW_CONCURRENCY" \
  ASSISTANT_OFFLINETOKENDELAY="$ASSISTANT_OFFLINETOKENDELAY" \
  $SERVICE_OPTS -Xlog:gc:file="$RUN_DIR/gc.log"
SERVICE_PID=$!
wait_healthy 180
log "service (pid $SERVICE_PID) healthy"

new_tenant() {   # $1 = name: prints the api key
  create_tenant "$1"
  echo "$API_KEY"
}
register() {   # $1 = api key, $2 = JSON array of event types: prints the endpoint's id
  curl -sf -X POST "$BASE/api/v1/webhooks" -H "X-API-Key: $1" -H 'Content-Type: application/json' \
    -d "{\"url\":\"$RECEIVER\",\"event_types\":$2}" | jq -r .id
}
client() { "$JAVA_HOME/bin/java" -Xmx512m "$BENCH_DIR/WebhookLoad.java" "$@"; }
nginx_ticks() {   # the nginx master and its worker
  # shellcheck disable=SC2046
  cpu_ticks "$NGINX_PID" $(pgrep -P "$NGINX_PID")
}
secs() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b - a) / 1e9}'; }   # $1, $2 = nanoseconds: seconds between

declare -A R

# events tenant: one endpoint for chat.deleted
KEY_EV=$(new_tenant "webhook bench events")
[[ "$KEY_EV" == crs_* ]] || die "no api key"
EP_EV=$(register "$KEY_EV" '["chat.deleted"]')
[[ "$EP_EV" =~ ^[0-9a-f-]{36}$ ]] || die "registering the endpoint failed: $EP_EV"
log "events tenant with endpoint $EP_EV -> $RECEIVER"

# warm-up: 1,000 events produced and delivered (the JIT, the pool, the HttpClient's connections)
client events base="$BASE" key="$KEY_EV" n=1000 concurrency="$CONCURRENCY" > "$RUN_DIR/warmup.txt"
for _ in $(seq 1 120); do
  [ "$(psql_db -At -c "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'")" = 0 ] && break
  sleep 0.5
done
log "warm-up: $(tr '\n' ' ' < "$RUN_DIR/warmup.txt")"

# ---------------------------------------------------------------------------------------------------------
# 1. Drain: a backlog of N events recorded while held back (a bench-only trigger makes every new delivery due in a
#    day: the recording is the same work), then released at once; delivered rows per second until none is pending.
# ---------------------------------------------------------------------------------------------------------
if wanted drain; then
  psql_db -At <<'SQL'
SET client_min_messages = warning;
CREATE OR REPLACE FUNCTION bench_hold_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.next_attempt_at := now() + interval '1 day';
  RETURN NEW;
END $$;
CREATE TRIGGER bench_hold_back BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION bench_hold_back();
SQL
  log "drain: recording a backlog of $N chat.deleted events ($CONCURRENCY workers creating and deleting chats)"
  client events base="$BASE" key="$KEY_EV" n="$N" concurrency="$CONCURRENCY" > "$RUN_DIR/drain-produce.txt"
  log "drain: produced $(tr '\n' ' ' < "$RUN_DIR/drain-produce.txt")"
  read_results "$RUN_DIR/drain-produce.txt" drain_
  R[drain_backlog]=$(psql_db -At -c "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'")
  psql_db -At -c "VACUUM ANALYZE webhook_deliveries" 2>/dev/null || true
  sleep 3
  R[drain_load_start]=$(cut -d' ' -f1-3 /proc/loadavg)
  s0=$(cpu_ticks "$SERVICE_PID"); p0=$(postgres_cpu_ticks); nw0=$(nginx_ticks)
  t0=$(date +%s%N)
  psql_db -At -c "DROP TRIGGER bench_hold_back ON webhook_deliveries" \
          -c "UPDATE webhook_deliveries SET next_attempt_at = now() WHERE status = 'pending'" >/dev/null
  : > "$RUN_DIR/drain-progress.txt"
  while true; do
    pending=$(psql_db -At -c "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'")
    echo "$(date +%T.%N | cut -c1-12) pending=$pending" >> "$RUN_DIR/drain-progress.txt"
    [ "$pending" = 0 ] && break
    [ $(( ($(date +%s%N) - t0) / 1000000000 )) -gt 600 ] && { log "WARNING: still $pending pending after 600 s"; break; }
    sleep 0.25
  done
  t1=$(date +%s%N)
  s1=$(cpu_ticks "$SERVICE_PID"); p1=$(postgres_cpu_ticks); nw1=$(nginx_ticks)
  R[drain_load_end]=$(cut -d' ' -f1-3 /proc/loadavg)
  R[drain_wall_s]=$(secs "$t0" "$t1")
  read -r R[drain_delivered] R[drain_failed] R[drain_server_s] R[drain_lat_p50] R[drain_lat_p99] < <(psql_db -At -F' ' -c "
    SELECT count(*) FILTER (WHERE status = 'delivered'), count(*) FILTER (WHERE status <> 'delivered'),
           round(extract(epoch FROM max(delivered_at) - min(delivered_at))::numeric, 2),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY last_latency_ms), percentile_cont(0.99) WITHIN GROUP (ORDER BY last_latency_ms)
    FROM webhook_deliveries WHERE seq > (SELECT max(seq) - ${R[drain_backlog]} FROM webhook_deliveries)")
  R[drain_rate_wall]=$(div "${R[drain_delivered]}" "${R[drain_wall_s]}" %.0f)
  R[drain_rate_server]=$(div "${R[drain_delivered]}" "${R[drain_server_s]}" %.0f)
  R[drain_cpu_service]=$(cpu_seconds $((s1 - s0)))
  R[drain_cpu_pg]=$(cpu_seconds $((p1 - p0)))
  R[drain_cpu_nginx]=$(cpu_seconds $((nw1 - nw0)))
  R[drain_cpu_ms_per_delivery]=$(div "$(( (s1 - s0) * 1000 ))" "$(( R[drain_delivered] * CLK_TCK ))" %.3f)
  R[drain_pg_cpu_ms_per_delivery]=$(div "$(( (p1 - p0) * 1000 ))" "$(( R[drain_delivered] * CLK_TCK ))" %.3f)
  log "drain: ${R[drain_delivered]} delivered in ${R[drain_wall_s]} s (wall, from the release) = ${R[drain_rate_wall]}/s;" \
      "first->last delivered_at ${R[drain_server_s]} s = ${R[drain_rate_server]}/s; service CPU ${R[drain_cpu_service]} s" \
      "(${R[drain_cpu_ms_per_delivery]} ms/delivery), postgres ${R[drain_cpu_pg]} s, nginx ${R[drain_cpu_nginx]} s; load ${R[drain_load_end]}"
fi

# ---------------------------------------------------------------------------------------------------------
# 2. Live: events produced while the deliverer runs; what is produced per second, what is delivered per second, how
#    far the deliveries fall behind (sampled), and how long the rest takes once production stops.
# ---------------------------------------------------------------------------------------------------------
if wanted live; then
  sleep 3
  R[live_load_start]=$(cut -d' ' -f1-3 /proc/loadavg)
  seq0=$(psql_db -At -c "SELECT coalesce(max(seq), 0) FROM webhook_deliveries")
  s0=$(cpu_ticks "$SERVICE_PID"); p0=$(postgres_cpu_ticks)
  t0=$(date +%s%N)
  log "live: producing $LIVE_N chat.deleted events while the deliverer runs"
  ( while true; do
      psql_db -At -c "SELECT to_char(clock_timestamp(), 'HH24:MI:SS.MS') || ' recorded=' || count(*) || ' pending=' || count(*) FILTER (WHERE status = 'pending')
        FROM webhook_deliveries WHERE seq > $seq0" 2>/dev/null || true
      sleep 0.5
    done ) > "$RUN_DIR/live-progress.txt" &
  sampler=$!
  client events base="$BASE" key="$KEY_EV" n="$LIVE_N" concurrency="$CONCURRENCY" > "$RUN_DIR/live-produce.txt"
  t_prod=$(date +%s%N)
  R[live_pending_when_produced]=$(psql_db -At -c "SELECT count(*) FROM webhook_deliveries WHERE seq > $seq0 AND status = 'pending'")
  for _ in $(seq 1 1200); do
    [ "$(psql_db -At -c "SELECT count(*) FROM webhook_deliveries WHERE seq > $seq0 AND status = 'pending'")" = 0 ] && break
    sleep 0.25
  done
  t1=$(date +%s%N)
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
  s1=$(cpu_ticks "$SERVICE_PID"); p1=$(postgres_cpu_ticks)
  R[live_load_end]=$(cut -d' ' -f1-3 /proc/loadavg)
  read_results "$RUN_DIR/live-produce.txt" live_
  R[live_produce_s]=$(secs "$t0" "$t_prod")
  R[live_all_delivered_s]=$(secs "$t0" "$t1")
  R[live_tail_s]=$(secs "$t_prod" "$t1")
  R[live_max_pending]=$(grep -o 'pending=[0-9]*' "$RUN_DIR/live-progress.txt" | cut -d= -f2 | sort -n | tail -1)
  read -r R[live_delivered] R[live_delivered_during] R[live_created_to_delivered_p50] R[live_created_to_delivered_p99] R[live_created_to_delivered_max] < <(psql_db -At -F' ' -c "
    SELECT count(*) FILTER (WHERE status = 'delivered'),
           count(*) FILTER (WHERE delivered_at <= to_timestamp($t_prod / 1e9)),
           round(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at) * 1000)::numeric),
           round(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at) * 1000)::numeric),
           round(max(extract(epoch FROM delivered_at - created_at) * 1000)::numeric)
    FROM webhook_deliveries WHERE seq > $seq0")
  # over the client's own window (from its first request: the JVM's start is not in it)
  R[live_delivered_per_s_during]=$(div "${R[live_delivered_during]}" "${R[live_events_seconds]}" %.0f)
  R[live_cpu_service]=$(cpu_seconds $((s1 - s0)))
  R[live_cpu_pg]=$(cpu_seconds $((p1 - p0)))
  log "live: ${R[live_events_deleted]} events in ${R[live_produce_s]} s (${R[live_events_per_s]}/s produced);" \
      "${R[live_delivered_during]} delivered meanwhile (${R[live_delivered_per_s_during]}/s); max pending ${R[live_max_pending]};" \
      "all delivered ${R[live_tail_s]} s after production ended; created->delivered p50/p99/max ${R[live_created_to_delivered_p50]}/${R[live_created_to_delivered_p99]}/${R[live_created_to_delivered_max]} ms"
fi

# ---------------------------------------------------------------------------------------------------------
# 3. Upload latency: tenant A without webhooks, tenant B with one endpoint for submission.created and
#    submission.reviewed; sequential uploads alternating A, B (B, A the next round), same homework, same files.
# ---------------------------------------------------------------------------------------------------------
if wanted upload; then
  homework() {   # $1 = api key: prints the homework's id
    local course
    course=$(curl -sf -X POST "$BASE/v1/courses" -H "x-tenant-api-secret: $1" -H 'Content-Type: application/json' \
      -d '{"teacherId":"teacher-bench","name":"Programming 1"}' | jq -r .id)
    jq -n --arg course "$course" --rawfile solution "$BENCH_DIR/review-solution.py" \
        '{teacherId: "teacher-bench", courseId: $course, assignmentId: "gradebook-3", subject: "Programming",
          files: [{fileType: "task", fileName: "task.md", content: "# Gradebook\n\nWrite gradebook.py: parse a CSV of scores, weighted averages, letter grades, statistics, a report."},
                  {fileType: "solution", fileName: "gradebook.py", content: $solution}]}' \
      | curl -sf -X POST "$BASE/v1/homeworks" -H "x-tenant-api-secret: $1" -H 'Content-Type: application/json' -d @- | jq -r .id
  }
  KEY_A=$(new_tenant "webhook bench uploads without webhooks")
  KEY_B=$(new_tenant "webhook bench uploads with a webhook")
  HW_A=$(homework "$KEY_A"); HW_B=$(homework "$KEY_B")
  [[ "$HW_A" =~ ^[0-9a-f-]{36}$ && "$HW_B" =~ ^[0-9a-f-]{36}$ ]] || die "publishing the homeworks failed: $HW_A $HW_B"
  EP_B=$(register "$KEY_B" '["submission.created","submission.reviewed"]')
  [[ "$EP_B" =~ ^[0-9a-f-]{36}$ ]] || die "registering the endpoint failed: $EP_B"
  sleep 2.5   # a node reads a tenant's endpoints at most every 2 s
  R[upload_load_start]=$(cut -d' ' -f1-3 /proc/loadavg)
  log "upload: $UPLOAD_WARMUP + $UPLOADS sequential uploads per tenant, alternating (REVIEW_CONCURRENCY=$REVIEW_CONCURRENCY, token delay $ASSISTANT_OFFLINETOKENDELAY)"
  client uploads base="$BASE" keys="$KEY_A,$KEY_B" homeworks="$HW_A,$HW_B" labels=none,webhook \
    solution="$BENCH_DIR/review-solution.py" n="$UPLOADS" warmup="$UPLOAD_WARMUP" > "$RUN_DIR/upload.txt" 2> "$RUN_DIR/upload.err" \
    || { cat "$RUN_DIR/upload.err" >&2; die "the upload client failed"; }
  R[upload_load_end]=$(cut -d' ' -f1-3 /proc/loadavg)
  read_results "$RUN_DIR/upload.txt" upload_
  R[upload_deliveries]=$(psql_db -At -c "SELECT string_agg(event_type || ' ' || status || '=' || n, ', ') FROM (SELECT event_type, status, count(*) n
    FROM webhook_deliveries WHERE endpoint_id = '$EP_B' GROUP BY 1, 2 ORDER BY 1, 2) x")
  R[upload_reviews]=$(psql_db -At -c "SELECT string_agg(review_state || '=' || n, ', ') FROM (SELECT review_state, count(*) n FROM submissions GROUP BY 1 ORDER BY 1) x")
  log "upload: no webhook ${R[upload_none_ms]}; with a webhook ${R[upload_webhook_ms]}; deliveries ${R[upload_deliveries]}; reviews ${R[upload_reviews]}"
fi

warning_summary "$RUN_DIR/service.log" "$RUN_DIR/service-warnings.txt"

# ---------------------------------------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------------------------------------
{
  echo "# Webhooks, $(date -Is)"
  echo
  echo "$(nproc) cores | service: ${SERVICE_OPTS:-JVM defaults} | receiver: nginx, 1 worker, return 204 | git $(git -C "$ROOT" rev-parse --short HEAD)"
  echo
  if wanted drain; then
    echo "- drain: backlog ${R[drain_backlog]} chat.deleted (recorded at ${R[drain_events_per_s]} events/s by $CONCURRENCY workers);" \
      "${R[drain_delivered]} delivered, ${R[drain_failed]} not, in ${R[drain_wall_s]} s from the release = **${R[drain_rate_wall]}/s**" \
      "(first -> last delivered_at ${R[drain_server_s]} s = ${R[drain_rate_server]}/s); attempt latency p50/p99 ${R[drain_lat_p50]}/${R[drain_lat_p99]} ms;" \
      "CPU s service ${R[drain_cpu_service]} (**${R[drain_cpu_ms_per_delivery]} ms per delivery**), postgres ${R[drain_cpu_pg]} (${R[drain_pg_cpu_ms_per_delivery]} ms per delivery), nginx ${R[drain_cpu_nginx]};" \
      "load ${R[drain_load_start]} -> ${R[drain_load_end]}"
  fi
  if wanted live; then
    echo "- live: ${R[live_events_deleted]} chat.deleted produced in ${R[live_events_seconds]} s (${R[live_events_per_s]}/s) while delivering;" \
      "${R[live_delivered_during]} delivered meanwhile (**${R[live_delivered_per_s_during]}/s**); pending at most ${R[live_max_pending]} (sampled every 0.5 s), ${R[live_pending_when_produced]} when production ended, all delivered ${R[live_tail_s]} s later;" \
      "created -> delivered p50/p99/max ${R[live_created_to_delivered_p50]}/${R[live_created_to_delivered_p99]}/${R[live_created_to_delivered_max]} ms;" \
      "CPU s service ${R[live_cpu_service]}, postgres ${R[live_cpu_pg]}; load ${R[live_load_start]} -> ${R[live_load_end]}"
  fi
  if wanted upload; then
    echo "- upload (sequential, one in flight, alternating, ${R[upload_none_n]} + ${R[upload_webhook_n]} measured, 20 KB file, REVIEW_CONCURRENCY=$REVIEW_CONCURRENCY):" \
      "no webhook ${R[upload_none_ms]} ms; one endpoint for submission.* ${R[upload_webhook_ms]} ms;" \
      "errors ${R[upload_none_errors]}/${R[upload_webhook_errors]}; deliveries ${R[upload_deliveries]}; reviews ${R[upload_reviews]}; load ${R[upload_load_start]} -> ${R[upload_load_end]}"
  fi
  echo "- service log: ERROR $(grep -c ' ERROR ' "$RUN_DIR/service.log" || true), WARN $(grep -c ' WARN ' "$RUN_DIR/service.log" || true)"
} | tee "$RUN_DIR/summary.md"
log "raw outputs: $RUN_DIR"
