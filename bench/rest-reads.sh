#!/usr/bin/env bash
# REST read benchmark: get-chat and list-messages against a seeded tenant (10,000 chats, 1,000,000 messages,
# one chat holding 200,000), everything on this machine. See docs/benchmarks.md.
#
#   bench/rest-reads.sh
#
# Settings (environment, all optional):
#   BENCH_PORT=18181        port of the service (127.0.0.1 only)
#   BENCH_DB=crs_bench      database created, then dropped, on the local PostgreSQL (127.0.0.1:5432, user postgres)
#   PGPORT=5432 PGUSER=postgres
#   DURATION=25             seconds of each measured wrk run
#   WARMUP=40               seconds of each warm-up run (get-chat, then list-messages)
#   CONNECTIONS=64 THREADS=2
#   RUNS="get-chat messages-page1 messages-offset100000 messages-offset199950"   the measured runs to make
#   JAVA_OPTS=...           extra JVM options (e.g. "-XX:+UseParallelGC -Xmx512m")
#   DATABASE_POOL_SIZE=...  passed to the service (its default is 20)
#   PROFILE=1               records a JFR profile of the service during the get-chat run (PROFILE=<run> during
#                           that run, e.g. PROFILE=messages-page1)
#   KEEP_DB=1               keeps the database at the end (for looking at plans)
#   LABEL=name              added to the results directory name
#   QUIET_WAIT=120          before each measured run, wait up to that many seconds for the rest of the machine
#   QUIET_BUSY=25           to use less than this % of the CPUs (the machine may be shared); 0 = do not wait
#
# Raw outputs go to bench/results/<date>-<label>/ (not committed); the summary is printed at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
export BENCH_DIR
cd "$ROOT"

PORT="${BENCH_PORT:-18181}"
DB="${BENCH_DB:-crs_bench}"
PGHOST=127.0.0.1
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
DURATION="${DURATION:-25}"
WARMUP="${WARMUP:-40}"
RUNS="${RUNS:-get-chat messages-page1 messages-offset100000 messages-offset199950}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
BASE="http://127.0.0.1:$PORT"
STAMP="$(date +%Y%m%d-%H%M%S)"
RUN_DIR="$BENCH_DIR/results/$STAMP${LABEL:+-$LABEL}"
SERVICE_PID=""

# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"

# ---------------------------------------------------------------------------------------------------------
# 0. Tools
# ---------------------------------------------------------------------------------------------------------
need_tools curl jq psql wrk
find_jdk
build_jar_if_missing
check_port_free "$BASE" BENCH_PORT
check_database

mkdir -p "$RUN_DIR"
log "results in $RUN_DIR"

cleanup() {
  local status=$?
  set +e
  stop_service
  drop_or_keep_database
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

{
  machine_facts shared_buffers max_connections effective_cache_size work_mem jit synchronous_commit
  echo "JAVA_OPTS: ${JAVA_OPTS:-}"
  echo "DATABASE_POOL_SIZE: ${DATABASE_POOL_SIZE:-default (20)}"
  echo "wrk: $(wrk -v 2>&1 | head -1)"
} > "$RUN_DIR/environment.txt"
load_line > "$RUN_DIR/load.txt"

# ---------------------------------------------------------------------------------------------------------
# 1. A fresh database
# ---------------------------------------------------------------------------------------------------------
recreate_database

# ---------------------------------------------------------------------------------------------------------
# 2. The service, timed from process start to /actuator/health UP
# ---------------------------------------------------------------------------------------------------------
ADMIN_TOKEN=$(random_token)
log "starting the service on $BASE"
START_NS=$(date +%s%N)
# shellcheck disable=SC2086
start_jar "$PORT" "$RUN_DIR/service.log" ${JAVA_OPTS:-}
SERVICE_PID=$!

wait_healthy 60
STARTUP_MS=$(( ($(date +%s%N) - START_NS) / 1000000 ))
SPRING_STARTED="$(grep -o 'Started [A-Za-z]* in [0-9.]* seconds (process running for [0-9.]*)' "$RUN_DIR/service.log" | head -1 || true)"
log "healthy after ${STARTUP_MS} ms (${SPRING_STARTED:-no 'Started' line})"

# ---------------------------------------------------------------------------------------------------------
# Memory at rest: a full GC, then RSS and heap used
# ---------------------------------------------------------------------------------------------------------
memory_at_rest() {   # $1 = label; prints "rss_mib heap_used_mib nonheap_used_mib"
  local label=$1 out="$RUN_DIR/memory-$1.txt"
  sleep 2
  jcmd "$SERVICE_PID" GC.run > /dev/null
  sleep 1
  {
    echo "== $label $(date -Is)"
    grep -E '^(VmRSS|VmHWM|RssAnon|RssFile|Threads)' "/proc/$SERVICE_PID/status"
    jcmd "$SERVICE_PID" GC.heap_info
    prom | grep -E '^jvm_(memory_(used|committed)_bytes|threads_live|gc_)'
  } > "$out" 2>&1
  local rss heap nonheap
  rss=$(awk '/^VmRSS/ {printf "%.0f", $2/1024}' "/proc/$SERVICE_PID/status")
  heap=$(awk '/^jvm_memory_used_bytes\{area="heap"/ {s+=$NF} END {printf "%.1f", s/1048576}' "$out")
  nonheap=$(awk '/^jvm_memory_used_bytes\{area="nonheap"/ {s+=$NF} END {printf "%.1f", s/1048576}' "$out")
  echo "$rss $heap $nonheap"
}

read -r RSS_START HEAP_START NONHEAP_START < <(memory_at_rest after-startup)
log "at rest after start-up: RSS ${RSS_START} MiB, heap used ${HEAP_START} MiB, non-heap ${NONHEAP_START} MiB"

# ---------------------------------------------------------------------------------------------------------
# 3. A tenant, through the admin API
# ---------------------------------------------------------------------------------------------------------
create_tenant "bench tenant"
log "tenant $TENANT_ID"

# ---------------------------------------------------------------------------------------------------------
# 4. Seed with SQL: 10,000 chats, 1,000,000 messages (one chat holds 200,000)
# ---------------------------------------------------------------------------------------------------------
IDS_FILE="$RUN_DIR/chat-ids.txt"
log "seeding 10,000 chats and 1,000,000 messages"
SEED_START=$(date +%s%N)
psql_db -v tenant_id="$TENANT_ID" -v ids_file="$IDS_FILE" -f "$BENCH_DIR/seed.sql" > "$RUN_DIR/seed.log" 2>&1 \
  || { cat "$RUN_DIR/seed.log" >&2; die "seeding failed"; }
psql_db -c "VACUUM (ANALYZE) chats" -c "VACUUM (ANALYZE) messages" -c "VACUUM (ANALYZE) users" >> "$RUN_DIR/seed.log" 2>&1
SEED_MS=$(( ($(date +%s%N) - SEED_START) / 1000000 ))
BIG_CHAT=$(head -1 "$IDS_FILE")
psql_db -At -c "SELECT 'chats=' || (SELECT count(*) FROM chats) || ' messages=' || (SELECT count(*) FROM messages)
  || ' big_chat_count=' || (SELECT message_count FROM chats WHERE id = '$BIG_CHAT')
  || ' sum_message_count=' || (SELECT sum(message_count) FROM chats)
  || ' messages_size=' || pg_size_pretty(pg_total_relation_size('messages'))
  || ' db_size=' || pg_size_pretty(pg_database_size(current_database()))" | tee "$RUN_DIR/dataset.txt" >&2
log "seeded in ${SEED_MS} ms; big chat $BIG_CHAT"
for off in 0 100000 199950; do
  psql_db -c "EXPLAIN (ANALYZE, BUFFERS) SELECT id, position FROM messages WHERE chat_id = '$BIG_CHAT' AND position > $off ORDER BY position LIMIT 50"
done > "$RUN_DIR/plans.txt" 2>&1

# sanity: the endpoints answer what they should
check() {   # $1 = path, $2 = jq expression that must be true
  local body code
  body=$(curl -s -w '\n%{http_code}' -H "X-API-Key: $API_KEY" "$BASE$1") || die "GET $1 failed"
  code=${body##*$'\n'}
  body=${body%$'\n'*}
  [ "$code" = 200 ] || die "GET $1 answered $code: ${body:0:500}"
  jq -e "$2" <<<"$body" >/dev/null || die "GET $1 answered unexpectedly: ${body:0:300}"
}
check "/api/v1/chats/$BIG_CHAT" '.message_count == 200000 and .status == "active"'
check "/api/v1/chats/$(sed -n 5000p "$IDS_FILE")" '.message_count == 80'
check "/api/v1/chats/$BIG_CHAT/messages?limit=50" '.total == 200000 and (.messages | length) == 50 and .has_more'
check "/api/v1/chats/$BIG_CHAT/messages?limit=50&offset=100000" '(.messages | length) == 50 and (.messages[0].content | startswith("Message 100001 "))'
check "/api/v1/chats/$BIG_CHAT/messages?limit=50&offset=199950" '(.messages | length) == 50 and (.has_more | not)'
curl -s -H "X-API-Key: $API_KEY" "$BASE/api/v1/chats/$BIG_CHAT/messages?limit=50" > "$RUN_DIR/sample-page.json"
PAGE_BYTES=$(wc -c < "$RUN_DIR/sample-page.json")
CHAT_BYTES=$(curl -s -H "X-API-Key: $API_KEY" "$BASE/api/v1/chats/$BIG_CHAT" | wc -c)

read -r RSS_SEEDED HEAP_SEEDED NONHEAP_SEEDED < <(memory_at_rest before-load)
log "at rest before the load: RSS ${RSS_SEEDED} MiB, heap used ${HEAP_SEEDED} MiB"

# ---------------------------------------------------------------------------------------------------------
# 5. Load
# ---------------------------------------------------------------------------------------------------------
secs() { cpu_seconds "$1" %.1f; }   # clock ticks -> CPU seconds, as the summary shows them

# With QUIET_WAIT=<seconds>, waits (at most that long) until the rest of the machine uses less than
# QUIET_BUSY (default 25) % of the CPUs, sampled over 3 s while the bench is idle: a shared machine is noisy.
wait_quiet() {
  local limit=${QUIET_WAIT:-0} max=${QUIET_BUSY:-25} waited=0 a b busy
  [ "$limit" -gt 0 ] || return 0
  while :; do
    a=$(machine_busy_ticks); sleep 3; b=$(machine_busy_ticks)
    busy=$(awk -v d=$((b - a)) -v t="$CLK_TCK" -v n="$(nproc)" 'BEGIN {printf "%d", 100 * d / t / 3 / n}')
    if [ "$busy" -lt "$max" ]; then
      echo "$(date -Is) quiet enough: machine ${busy}% busy (waited ${waited}s)" >> "$RUN_DIR/load.txt"
      return 0
    fi
    waited=$((waited + 3))
    if [ "$waited" -ge "$limit" ]; then
      echo "$(date -Is) still ${busy}% busy after ${waited}s; running anyway" >> "$RUN_DIR/load.txt"
      log "the machine is still ${busy}% busy after ${waited}s of waiting; running anyway"
      return 0
    fi
  done
}

run_wrk() {   # $1 = name, $2 = seconds, $3 = lua script, $4 = url, rest = script args
  local name=$1 seconds=$2 script=$3 url=$4
  shift 4
  local out="$RUN_DIR/wrk-$name.txt" svc0 svc1 pg0 pg1 all0 all1 wrk_cpu
  case "$name" in warmup-*) ;; *) wait_quiet ;; esac
  load_line >> "$RUN_DIR/load.txt"
  log "wrk $name: ${seconds}s, $CONNECTIONS connections, $THREADS threads ($url)"
  top_snapshot "$name" $((seconds / 2)) 15
  local top_pid=$!
  local profiled=${PROFILE:-}
  [ "$profiled" = 1 ] && profiled=get-chat
  if [ "$name" = "$profiled" ]; then
    jcmd "$SERVICE_PID" JFR.start name=bench settings=profile > "$RUN_DIR/jfr.txt" 2>&1
  fi
  svc0=$(cpu_ticks "$SERVICE_PID"); pg0=$(postgres_cpu_ticks); all0=$(machine_busy_ticks)
  local TIMEFORMAT='%U %S'
  { time wrk -t "$THREADS" -c "$CONNECTIONS" -d "${seconds}s" --timeout 5s --latency -s "$script" "$url" -- "$@" \
      > "$out" 2>&1 ; } 2> "$RUN_DIR/.wrk-time" || { cat "$out" >&2; die "wrk $name failed"; }
  svc1=$(cpu_ticks "$SERVICE_PID"); pg1=$(postgres_cpu_ticks); all1=$(machine_busy_ticks)
  wrk_cpu=$(awk '{printf "%.1f", $1 + $2}' "$RUN_DIR/.wrk-time")
  if [ "$name" = "$profiled" ]; then
    jcmd "$SERVICE_PID" JFR.stop name=bench filename="$RUN_DIR/$name.jfr" >> "$RUN_DIR/jfr.txt" 2>&1
    "$JAVA_HOME/bin/jfr" view --width 200 hot-methods "$RUN_DIR/$name.jfr" > "$RUN_DIR/jfr-hot-methods.txt" 2>&1 || true
    "$JAVA_HOME/bin/jfr" summary "$RUN_DIR/$name.jfr" > "$RUN_DIR/jfr-summary.txt" 2>&1 || true
    python3 "$BENCH_DIR/jfr-top.py" "$RUN_DIR/$name.jfr" > "$RUN_DIR/jfr-top.txt" 2>&1 || true
    log "JFR recording: $RUN_DIR/$name.jfr (jfr-hot-methods.txt, jfr-top.txt)"
  fi
  {
    echo "service_cpu_seconds=$(secs $((svc1 - svc0)))"
    echo "postgres_cpu_seconds=$(secs $((pg1 - pg0)))"
    echo "wrk_cpu_seconds=$wrk_cpu"
    echo "machine_busy_seconds=$(secs $((all1 - all0)))"
    echo "other_cpu_seconds=$(awk -v a="$(secs $((all1 - all0)))" -v s="$(secs $((svc1 - svc0)))" \
      -v p="$(secs $((pg1 - pg0)))" -v w="$wrk_cpu" 'BEGIN {o = a - s - p - w; printf "%.1f", o < 0 ? 0 : o}')"
  } >> "$out"
  wait "$top_pid" 2>/dev/null || true
  echo "after $name: $(load_line)" >> "$RUN_DIR/load.txt"
  grep BENCH_RESULT "$out" >&2 || true
  grep -E '_seconds=' "$out" | tr '\n' ' ' >&2; echo >&2
}

MSG_URL="$BASE/api/v1/chats/$BIG_CHAT/messages?limit=50"

log "warming up"
run_wrk warmup-get-chat "$WARMUP" "$BENCH_DIR/chats.lua" "$BASE" "$IDS_FILE" "$API_KEY"
run_wrk warmup-messages "$WARMUP" "$BENCH_DIR/fixed.lua" "$MSG_URL" "$API_KEY"
sleep 2

wanted get-chat && run_wrk get-chat "$DURATION" "$BENCH_DIR/chats.lua" "$BASE" "$IDS_FILE" "$API_KEY" && sleep 2
wanted messages-page1 && run_wrk messages-page1 "$DURATION" "$BENCH_DIR/fixed.lua" "$MSG_URL" "$API_KEY" && sleep 2
wanted messages-offset100000 \
  && run_wrk messages-offset100000 "$DURATION" "$BENCH_DIR/fixed.lua" "$MSG_URL&offset=100000" "$API_KEY" && sleep 2
wanted messages-offset199950 \
  && run_wrk messages-offset199950 "$DURATION" "$BENCH_DIR/fixed.lua" "$MSG_URL&offset=199950" "$API_KEY"

read -r RSS_AFTER HEAP_AFTER NONHEAP_AFTER < <(memory_at_rest after-load)
VMHWM=$(awk '/^VmHWM/ {printf "%.0f", $2/1024}' "$RUN_DIR/memory-after-load.txt")
log "at rest after the load: RSS ${RSS_AFTER} MiB (peak ${VMHWM} MiB), heap used ${HEAP_AFTER} MiB"

# ---------------------------------------------------------------------------------------------------------
# 6. Summary
# ---------------------------------------------------------------------------------------------------------
field() { { grep -o "$2=[0-9.]*" "$RUN_DIR/wrk-$1.txt" 2>/dev/null || true; } | head -1 | cut -d= -f2; }

P1=$(field messages-page1 rps)
row() {   # name, target text, verdict
  local n=$1
  printf '| %-22s | %9s | %7s | %7s | %7s | %8s | %6s | %8s | %16s | %-29s | %-6s |\n' "$n" \
    "$(field "$n" rps)" "$(field "$n" p50_ms)" "$(field "$n" p99_ms)" "$(field "$n" max_ms)" \
    "$(field "$n" requests)" "$(field "$n" non2xx)" \
    "$(awk -v r="$(field "$n" requests)" -v c="$(field "$n" service_cpu_seconds)" 'BEGIN {if (c > 0) printf "%.0f", r / c}')" \
    "$(field "$n" service_cpu_seconds)/$(field "$n" postgres_cpu_seconds)/$(field "$n" wrk_cpu_seconds)/$(field "$n" other_cpu_seconds)" \
    "$2" "$3"
}
GC_RPS=$(field get-chat rps); GC_P99=$(field get-chat p99_ms)
O1=$(field messages-offset100000 rps); O2=$(field messages-offset199950 rps)
{
  echo "# REST reads, $(date -Is)"
  echo
  echo "$(load_line) | $(nproc) cores | $CONNECTIONS connections, $THREADS wrk threads, ${DURATION}s per run"
  echo "JAVA_OPTS='${JAVA_OPTS:-}' DATABASE_POOL_SIZE=${DATABASE_POOL_SIZE:-20 (default)}"
  echo
  echo "| run                    |     req/s | p50 ms  | p99 ms  | max ms  | requests | non2xx | req/svc-cpu-s | cpu s svc/pg/wrk/other | target                        | result |"
  echo "|------------------------|-----------|---------|---------|---------|----------|--------|----------|------------------|-------------------------------|--------|"
  wanted get-chat && row get-chat ">= 10000/s, p99 < 20 ms" "$(verdict eval 'ge "$GC_RPS" 10000 && lt "$GC_P99" 20')"
  wanted messages-page1 && row messages-page1 ">= 4000/s" "$(verdict ge "$P1" 4000)"
  wanted messages-offset100000 && row messages-offset100000 "as fast as page 1 (>= 90 %)" "$(verdict ge "$O1" "$(awk -v p="$P1" 'BEGIN {print p * 0.9}')")"
  wanted messages-offset199950 && row messages-offset199950 "as fast as page 1 (>= 90 %)" "$(verdict ge "$O2" "$(awk -v p="$P1" 'BEGIN {print p * 0.9}')")"
  echo
  echo "cpu s = CPU seconds used during the run by the service / the PostgreSQL backends of the bench database / wrk /"
  echo "everything else on the machine (other agents' builds); $(nproc) cores x ${DURATION} s = $(( $(nproc) * DURATION )) s available."
  echo "req/svc-cpu-s = requests served per CPU second of the service: the figure least bent by other load."
  echo "response sizes: get-chat ${CHAT_BYTES} B, a page of 50 messages ${PAGE_BYTES} B"
  echo
  echo "| start-up to healthy | $(awk -v m="$STARTUP_MS" 'BEGIN {printf "%.2f s", m/1000}') | target < 10 s: $(verdict lt "$STARTUP_MS" 10000) | ${SPRING_STARTED:-} |"
  echo
  echo "| memory at rest (after a full GC) | RSS MiB | heap used MiB | non-heap used MiB |"
  echo "|---|---|---|---|"
  echo "| after start-up (empty database)  | $RSS_START | $HEAP_START | $NONHEAP_START |"
  echo "| after seeding, before the load   | $RSS_SEEDED | $HEAP_SEEDED | $NONHEAP_SEEDED |"
  echo "| after the load                   | $RSS_AFTER (peak $VMHWM) | $HEAP_AFTER | $NONHEAP_AFTER |"
  echo
  echo "seed: $(cat "$RUN_DIR/dataset.txt") in $(awk -v m="$SEED_MS" 'BEGIN {printf "%.1f s", m/1000}')"
} | tee "$RUN_DIR/summary.md"
cat "$RUN_DIR/load.txt" >> "$RUN_DIR/summary.md"
log "raw outputs: $RUN_DIR"
