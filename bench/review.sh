#!/usr/bin/env bash
# Homework review benchmark: how many reviews one node completes per minute with the offline provider on submissions
# of 10 files x 20 KiB, and the upload's own latency with 20 concurrent uploaders while the reviews run and while
# they are held back. Everything on this machine. See docs/benchmarks.md, section "Homework review".
#
#   bench/review.sh
#
# Settings (environment, all optional):
#   BENCH_PORT=18184          port of the service (127.0.0.1 only)
#   BENCH_DB=crs_bench_review database created (again for each configuration), then dropped, on the local
#                             PostgreSQL (127.0.0.1:5432, user postgres)
#   PGPORT=5432 PGUSER=postgres
#   CONFIGS="15ms/4 0ms/4"    the configurations, one service start each: ASSISTANT_OFFLINETOKENDELAY/REVIEW_CONCURRENCY
#                             (15ms and 4 are the service's defaults); e.g. "15ms/4 0ms/4 0ms/8 0ms/16"
#   RUNS="throughput latency" which parts to run for each configuration
#   N=200                     submissions of the throughput run
#   TP_WARMUP=20              submissions uploaded and reviewed before it (not measured: the JIT, the pool)
#   UPLOAD_CONCURRENCY=20     uploads in flight during the throughput run
#   POLL_INTERVAL=1           seconds between two polls of the submission list
#   REVIEW_TIMEOUT=1200       seconds the throughput run waits for the reviews at most
#   CLIENTS=20                concurrent uploaders of the latency runs
#   DURATION=30               seconds measured of each latency run
#   LAT_WARMUP=10             seconds of uploads before each latency run's measure
#   LAT_ROUNDS=2              rounds of the pair "reviews held back" / "reviews running" (alternating, so that
#                             neither always has the warmer JVM or the bigger tables)
#   SEED=42 FILES=10 FILE_KB=20   the generated submissions (bench/ReviewLoad.java, from bench/review-solution.py)
#   JAVA_OPTS=                JVM options of the service (default: none, the JVM's own defaults)
#   CLIENT_OPTS="-Xmx1g"      JVM options of the load client
#   LABEL=name                added to the results directory name
#   KEEP_DB=1                 keeps the (last) database at the end
# Any other variable of the service (REVIEW_MAX_ATTEMPTS, DATABASE_POOL_SIZE...) passes through to it.
#
# Raw outputs go to bench/results/<date>-review<-label>/ (not committed); the summary is printed at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
cd "$ROOT"

PORT="${BENCH_PORT:-18184}"
DB="${BENCH_DB:-crs_bench_review}"
PGHOST=127.0.0.1
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
CONFIGS="${CONFIGS:-15ms/4 0ms/4}"
RUNS="${RUNS:-throughput latency}"
N="${N:-200}"
TP_WARMUP="${TP_WARMUP:-20}"
UPLOAD_CONCURRENCY="${UPLOAD_CONCURRENCY:-20}"
POLL_INTERVAL="${POLL_INTERVAL:-1}"
REVIEW_TIMEOUT="${REVIEW_TIMEOUT:-1200}"
CLIENTS="${CLIENTS:-20}"
DURATION="${DURATION:-30}"
LAT_WARMUP="${LAT_WARMUP:-10}"
LAT_ROUNDS="${LAT_ROUNDS:-2}"
SEED="${SEED:-42}"
FILES="${FILES:-10}"
FILE_KB="${FILE_KB:-20}"
SERVICE_OPTS="${JAVA_OPTS:-}"
CLIENT_OPTS="${CLIENT_OPTS:--Xmx1g}"
BASE="http://127.0.0.1:$PORT"
STAMP="$(date +%Y%m%d-%H%M%S)"
RUN_DIR="$BENCH_DIR/results/$STAMP-review${LABEL:+-$LABEL}"
SERVICE_PID=""
CLIENT_PID=""
SAMPLER_PID=""

# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"

# ---------------------------------------------------------------------------------------------------------
# 0. Tools
# ---------------------------------------------------------------------------------------------------------
need_tools curl jq psql
for config in $CONFIGS; do
  [[ "$config" =~ ^[0-9]+(ms|s)/[0-9]+$ ]] || die "CONFIGS entries are DELAY/CONCURRENCY, e.g. 15ms/4, not '$config'"
done

find_jdk 22
build_jar_if_missing
check_port_free "$BASE" BENCH_PORT
check_database

mkdir -p "$RUN_DIR"
log "results in $RUN_DIR"

STOP_WAIT=45   # seconds stop_pid waits before KILL (lib.sh): the service waits up to 30 s for reviews in progress

cleanup() {
  local status=$?
  set +e
  if [ -n "$SAMPLER_PID" ]; then stop_pid "$SAMPLER_PID"; fi
  if [ -n "$CLIENT_PID" ]; then stop_pid "$CLIENT_PID"; fi
  stop_service
  drop_or_keep_database
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

{
  machine_facts shared_buffers max_connections synchronous_commit fsync wal_level
  echo "service JAVA_OPTS: ${SERVICE_OPTS:-(none)}"
  echo "client opts: $CLIENT_OPTS"
  echo "configurations (ASSISTANT_OFFLINETOKENDELAY/REVIEW_CONCURRENCY): $CONFIGS"
  echo "other service variables passed through: $(env | grep -E '^(REVIEW_|ASSISTANT_|AI_|DATABASE_POOL)' | grep -vE '^(REVIEW_CONCURRENCY|ASSISTANT_OFFLINETOKENDELAY)=' | tr '\n' ' ')"
  echo "N=$N TP_WARMUP=$TP_WARMUP UPLOAD_CONCURRENCY=$UPLOAD_CONCURRENCY CLIENTS=$CLIENTS DURATION=$DURATION LAT_WARMUP=$LAT_WARMUP LAT_ROUNDS=$LAT_ROUNDS SEED=$SEED FILES=$FILES FILE_KB=$FILE_KB"
  echo "git status of the worktree:"; git -C "$ROOT" status --short | head -20
} > "$RUN_DIR/environment.txt"
load_line > "$RUN_DIR/load.txt"

# ---------------------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------------------
client() {   # runs bench/ReviewLoad.java with the client options and the submission settings
  # shellcheck disable=SC2086
  "$JAVA_HOME/bin/java" $CLIENT_OPTS "$BENCH_DIR/ReviewLoad.java" "$@" solution="$BENCH_DIR/review-solution.py" \
    seed="$SEED" files="$FILES" file_kb="$FILE_KB" base="$BASE" key="$API_KEY" homework="$HOMEWORK" \
    procs="$CFG_DIR/procs.txt" clk_tck="$CLK_TCK"
}

memory_at_rest() {   # $1 = file; prints "rss_mib heap_used_mib nonheap_used_mib threads"
  local out=$1
  sleep 2
  jcmd "$SERVICE_PID" GC.run > /dev/null
  sleep 1
  {
    echo "== $(date -Is)"
    grep -E '^(VmRSS|VmHWM|RssAnon|RssFile|Threads)' "/proc/$SERVICE_PID/status"
    jcmd "$SERVICE_PID" GC.heap_info
    prom | grep -E '^jvm_(memory_(used|committed|max)_bytes|threads_live|gc_)'
  } > "$out" 2>&1
  local rss heap nonheap threads
  rss=$(awk '/^VmRSS/ {printf "%.0f", $2/1024}' "/proc/$SERVICE_PID/status")
  threads=$(awk '/^Threads/ {print $2}' "/proc/$SERVICE_PID/status")
  heap=$(awk '/^jvm_memory_used_bytes\{area="heap"/ {s+=$NF} END {printf "%.0f", s/1048576}' "$out")
  nonheap=$(awk '/^jvm_memory_used_bytes\{area="nonheap"/ {s+=$NF} END {printf "%.0f", s/1048576}' "$out")
  echo "$rss $heap $nonheap $threads"
}

declare -A R   # results of every configuration, keys prefixed with the configuration's tag

# Once a second while a latency run measures: the review jobs running (picked) and due but waiting
start_job_sampler() {   # $1 = file
  ( while true; do
      psql -X -At -d "$DB" -c "SELECT to_char(clock_timestamp(), 'HH24:MI:SS') || ' running=' || count(*) FILTER (WHERE picked)
        || ' due_waiting=' || count(*) FILTER (WHERE NOT picked AND execution_time <= now())
        || ' held_back=' || count(*) FILTER (WHERE NOT picked AND execution_time > now() + interval '1 hour')
        FROM scheduled_tasks" 2>/dev/null || true
      sleep 1
    done ) > "$1" &
  SAMPLER_PID=$!
}
stop_job_sampler() {
  [ -n "$SAMPLER_PID" ] && stop_pid "$SAMPLER_PID"
  SAMPLER_PID=""
}
sampler_range() {   # $1 = file, $2 = field: "min-max" of the field over the samples
  grep -o "$2=[0-9]*" "$1" | cut -d= -f2 | sort -n | awk 'NR == 1 {min = $1} {max = $1} END {printf "%s-%s", min, max}'
}

# Holding the reviews back, for the upload's baseline: a trigger (bench only, on the bench database) makes every
# review job scheduled from now on due in a day instead of at once. The upload does exactly the same work (the job
# is inserted in its transaction, the node is told to look for due jobs); only the review does not run.
hold_reviews_back() {
  psql_db -At <<'SQL'
SET client_min_messages = warning;
CREATE OR REPLACE FUNCTION bench_hold_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.execution_time := now() + interval '1 day';
  RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS bench_hold_back ON scheduled_tasks;
CREATE TRIGGER bench_hold_back BEFORE INSERT ON scheduled_tasks FOR EACH ROW EXECUTE FUNCTION bench_hold_back();
UPDATE scheduled_tasks SET execution_time = now() + interval '1 day' WHERE NOT picked;
SQL
  local running
  for _ in $(seq 1 240); do   # the reviews in progress finish (at most 2 minutes)
    running=$(psql_db -At -c "SELECT count(*) FROM scheduled_tasks WHERE picked")
    [ "$running" = 0 ] && return 0
    sleep 0.5
  done
  log "WARNING: $running reviews still running after 2 minutes; the 'held back' run starts anyway"
}

release_reviews() {   # prints the number of jobs released
  psql_db -At <<'SQL'
SET client_min_messages = warning;
DROP TRIGGER IF EXISTS bench_hold_back ON scheduled_tasks;
WITH released AS (UPDATE scheduled_tasks SET execution_time = now()
                  WHERE NOT picked AND execution_time > now() + interval '1 hour' RETURNING 1)
SELECT count(*) FROM released;
SQL
}

# ---------------------------------------------------------------------------------------------------------
# The homework: task, reference solution (bench/review-solution.py, 20 KB of Python), restrictions
# ---------------------------------------------------------------------------------------------------------
read -r -d '' TASK <<'EOF' || true
# Gradebook (homework 3)

Write `gradebook.py`, a module that turns a course's scores into final grades and a report for the teacher.

1. `read_gradebook(text)` parses the CSV: a header `student_id,name,<assessment>...`, a `weight` row (fractions
   or percentages adding up to 1 or 100), then one row per student. An empty cell is a missing score (zero), `EX`
   is excused (left out, the other weights rescaled). Reject a student id given twice, scores outside the range,
   weights that do not add up, with the line number in the error (`GradebookError`).
2. `weighted_average`, `letter_grade` (A >= 90, B >= 80, C >= 70, D >= 60, E >= 50, else F).
3. Statistics without libraries: `mean`, `median`, `variance`/`standard_deviation` (sample by default),
   `percentile` (linear interpolation), `mode`.
4. `curve(percentages, target_mean)`: shift everyone up to the target mean, never down, never above 100.
5. `rank` (ties share a rank: 1, 2, 2, 4), `histogram` of letters, `at_risk` (below 60 or two missing scores).
6. `render_report` (plain-text tables) and `write_csv`; a `main` that reads a file and prints the report.

Hand in the module, your tests (pytest), a README with how to run it, and two sample gradebooks.
EOF
read -r -d '' RESTRICTIONS <<'EOF' || true
# Restrictions

- Python 3.10+, standard library only: do not import `statistics`, `numpy`, `pandas` or `scipy`; the point of
  part 3 is to write the statistics yourself.
- No global mutable state; functions take what they need and return new values (`curve` must not change its input).
- Every public function has a docstring. Lines are at most 100 characters.
- Do not read or write files outside `main`.
- Tests must not depend on the order in which they run.
EOF

setup_homework() {   # sets API_KEY, COURSE, HOMEWORK
  create_tenant "review bench tenant"
  COURSE=$(curl -sf -X POST "$BASE/v1/courses" -H "x-tenant-api-secret: $API_KEY" -H 'Content-Type: application/json' \
    -d '{"teacherId":"teacher-bench","name":"Programming 1"}' | jq -r .id) || die "creating the course failed"
  HOMEWORK=$(jq -n --arg course "$COURSE" --arg task "$TASK" --arg restrictions "$RESTRICTIONS" \
      --rawfile solution "$BENCH_DIR/review-solution.py" \
      '{teacherId: "teacher-bench", courseId: $course, assignmentId: "gradebook-3", subject: "Programming",
        files: [{fileType: "task", fileName: "task.md", content: $task},
                {fileType: "solution", fileName: "gradebook.py", content: $solution},
                {fileType: "restriction", fileName: "restrictions.md", content: $restrictions}]}' \
    | curl -sf -X POST "$BASE/v1/homeworks" -H "x-tenant-api-secret: $API_KEY" -H 'Content-Type: application/json' -d @- \
    | jq -r .id) || die "publishing the homework failed"
  [[ "$HOMEWORK" =~ ^[0-9a-f-]{36}$ ]] || die "no homework id: $HOMEWORK"
  log "tenant $TENANT_ID, course $COURSE, homework $HOMEWORK"
}

# ---------------------------------------------------------------------------------------------------------
# One configuration: a fresh database, the service, the homework, the runs
# ---------------------------------------------------------------------------------------------------------
run_config() {   # $1 = DELAY/CONCURRENCY
  local delay=${1%/*} concurrency=${1#*/}
  local tag="d${delay}-c${concurrency}"
  local k="$tag:"
  CFG_DIR="$RUN_DIR/$tag"
  mkdir -p "$CFG_DIR"
  R[${k}delay]=$delay
  R[${k}concurrency]=$concurrency
  log "=== configuration $tag: ASSISTANT_OFFLINETOKENDELAY=$delay REVIEW_CONCURRENCY=$concurrency"
  recreate_database
  ADMIN_TOKEN=$(random_token)
  local start_ns
  start_ns=$(date +%s%N)
  # shellcheck disable=SC2086
  start_jar "$PORT" "$CFG_DIR/service.log" ASSISTANT_OFFLINETOKENDELAY="$delay" REVIEW_CONCURRENCY="$concurrency" \
    $SERVICE_OPTS -Xlog:gc:file="$CFG_DIR/gc.log"
  SERVICE_PID=$!
  wait_healthy 180 "$CFG_DIR/service.log"
  log "healthy after $(( ($(date +%s%N) - start_ns) / 1000000 )) ms"
  setup_homework
  write_procs "$CFG_DIR/procs.txt" service "$SERVICE_PID"

  if wanted throughput; then
    if [ "$TP_WARMUP" -gt 0 ]; then
      log "warm-up: $TP_WARMUP submissions uploaded and reviewed (not measured)"
      client throughput n="$TP_WARMUP" first_index=900000 concurrency="$UPLOAD_CONCURRENCY" poll_interval="$POLL_INTERVAL" \
        timeout="$REVIEW_TIMEOUT" prefix=warm limit=$((REVIEW_TIMEOUT + 300)) out="$CFG_DIR/warmup-result.txt" \
        > "$CFG_DIR/warmup-client.out" 2> "$CFG_DIR/warmup-client.err" || { tail -20 "$CFG_DIR/warmup-client.err" >&2; die "the warm-up failed"; }
      grep -E '^warm_(done|failed|pending_at_end|errors)=' "$CFG_DIR/warmup-result.txt" | tr '\n' ' ' >&2; echo >&2
    fi
    prom > "$CFG_DIR/prometheus-before-throughput.txt"
    load_line >> "$RUN_DIR/load.txt"
    log "throughput: $N submissions of $FILES x $FILE_KB KiB, $UPLOAD_CONCURRENCY uploads in flight, then polling until every review is done or failed"
    start_job_sampler "$CFG_DIR/jobs-throughput.txt"
    client throughput n="$N" first_index=0 concurrency="$UPLOAD_CONCURRENCY" poll_interval="$POLL_INTERVAL" \
      timeout="$REVIEW_TIMEOUT" prefix=tp limit=$((REVIEW_TIMEOUT + 300)) out="$CFG_DIR/throughput-result.txt" \
      csv="$CFG_DIR/throughput-submissions.csv" > "$CFG_DIR/throughput-client.out" 2> "$CFG_DIR/throughput-client.err" &
    CLIENT_PID=$!
    wait "$CLIENT_PID" || { tail -20 "$CFG_DIR/throughput-client.err" >&2; CLIENT_PID=""; die "the throughput client failed"; }
    CLIENT_PID=""
    stop_job_sampler
    R[${k}tp_jobs_running]=$(sampler_range "$CFG_DIR/jobs-throughput.txt" running)
    echo "after throughput $tag: $(load_line)" >> "$RUN_DIR/load.txt"
    prom > "$CFG_DIR/prometheus-after-throughput.txt"
    read_results "$CFG_DIR/throughput-result.txt" "$k"
    # how long the analyses are (the offline provider streams them a word at a time, ASSISTANT_OFFLINETOKENDELAY each)
    R[${k}tp_words_avg]=$(psql_db -At -c "SELECT coalesce(round(avg(array_length(regexp_split_to_array(btrim(analysis), '\\s+'), 1))), 0)
      FROM submissions WHERE review_state = 'done' AND student_id NOT LIKE 'student-9000%'")
    # the service's own timer of one review attempt (job start -> review stored), over the measured run only
    R[${k}attempt_s_avg]=$(awk '
      FNR == 1 {f++}
      /^reviews_duration_seconds_count/ {c[f] = $NF} /^reviews_duration_seconds_sum/ {s[f] = $NF}
      END {if (c[2] - c[1] > 0) printf "%.2f", (s[2] - s[1]) / (c[2] - c[1]); else printf "n/a"}' \
      "$CFG_DIR/prometheus-before-throughput.txt" "$CFG_DIR/prometheus-after-throughput.txt")
    log "throughput $tag: ${R[${k}tp_done]} done, ${R[${k}tp_failed]} failed, ${R[${k}tp_pending_at_end]} pending;" \
      "${R[${k}tp_reviews_per_min]:-n/a} reviews/min (server timestamps: ${R[${k}tp_reviews_per_min_server]:-n/a});" \
      "grades ${R[${k}tp_grades]}; errors ${R[${k}tp_errors]}"
  fi

  if wanted latency; then
    local round
    for round in $(seq 1 "$LAT_ROUNDS"); do
      local held="held$round" running="running$round"
      # (a) the reviews held back: no review runs during the window
      log "latency round $round (a): reviews held back; $CLIENTS uploaders, warm-up ${LAT_WARMUP}s, measure ${DURATION}s"
      hold_reviews_back
      write_procs "$CFG_DIR/procs.txt" service "$SERVICE_PID"
      load_line >> "$RUN_DIR/load.txt"
      start_job_sampler "$CFG_DIR/jobs-$held.txt"
      client latency clients="$CLIENTS" warmup="$LAT_WARMUP" duration="$DURATION" first_index=$((100000 * round)) \
        prefix="$held" limit=$((LAT_WARMUP + DURATION + 300)) out="$CFG_DIR/$held-result.txt" \
        > "$CFG_DIR/$held-client.out" 2> "$CFG_DIR/$held-client.err" || { tail -20 "$CFG_DIR/$held-client.err" >&2; die "the latency client failed"; }
      stop_job_sampler
      read_results "$CFG_DIR/$held-result.txt" "$k"
      R[${k}${held}_jobs_running]=$(sampler_range "$CFG_DIR/jobs-$held.txt" running)
      # (b) the same with the reviews running: the held-back jobs are released (a backlog from the first second)
      local released
      released=$(release_reviews | tail -1)
      R[${k}${running}_backlog_at_start]=$released
      log "latency round $round (b): $released reviews released; reviews running; the same uploads again"
      sleep 3
      write_procs "$CFG_DIR/procs.txt" service "$SERVICE_PID"
      load_line >> "$RUN_DIR/load.txt"
      start_job_sampler "$CFG_DIR/jobs-$running.txt"
      client latency clients="$CLIENTS" warmup="$LAT_WARMUP" duration="$DURATION" first_index=$((100000 * round + 50000)) \
        prefix="$running" limit=$((LAT_WARMUP + DURATION + 300)) out="$CFG_DIR/$running-result.txt" \
        > "$CFG_DIR/$running-client.out" 2> "$CFG_DIR/$running-client.err" || { tail -20 "$CFG_DIR/$running-client.err" >&2; die "the latency client failed"; }
      stop_job_sampler
      echo "after latency round $round $tag: $(load_line)" >> "$RUN_DIR/load.txt"
      read_results "$CFG_DIR/$running-result.txt" "$k"
      R[${k}${running}_jobs_running]=$(sampler_range "$CFG_DIR/jobs-$running.txt" running)
      local ws=${R[${k}${running}_window_start]} we=${R[${k}${running}_window_end]}
      R[${k}${running}_reviews_in_window]=$(psql_db -At -c "SELECT count(*) FROM submissions
        WHERE reviewed_at >= '$ws' AND reviewed_at < '$we'")
      R[${k}${running}_failed_attempts_in_window]=$(psql_db -At -c "SELECT count(*) FROM submissions
        WHERE review_state <> 'done' AND review_attempts > 0 AND updated_at >= '$ws' AND updated_at < '$we'")
      R[${k}${running}_pending_at_end]=$(psql_db -At -c "SELECT count(*) FROM submissions WHERE review_state = 'pending'")
      for ph in "$held" "$running"; do
        log "latency $tag $ph: ${R[${k}${ph}_uploads_per_s]} uploads/s, upload ms ${R[${k}${ph}_upload_ms]}," \
          "statuses ${R[${k}${ph}_statuses]}, review jobs running ${R[${k}${ph}_jobs_running]}"
      done
      log "latency $tag $running: ${R[${k}${running}_reviews_in_window]} reviews done in the window, ${R[${k}${running}_pending_at_end]} pending at its end"
    done
  fi

  read -r R[${k}rss_mib] R[${k}heap_mib] R[${k}nonheap_mib] R[${k}threads] < <(memory_at_rest "$CFG_DIR/memory-end.txt")
  R[${k}rss_peak_mib]=$(awk '/^VmHWM/ {printf "%.0f", $2/1024}' "$CFG_DIR/memory-end.txt")
  R[${k}gc]=$(awk '/Pause Young/ {v = $NF; sub("ms", "", v); n++; s += v; if (v + 0 > m) m = v + 0}
    END {printf "%d young pauses, %.0f ms in all, longest %.0f ms", n, s, m}' "$CFG_DIR/gc.log")
  warning_summary "$CFG_DIR/service.log" "$CFG_DIR/service-warnings.txt"
  R[${k}log_errors]=$(grep -c ' ERROR ' "$CFG_DIR/service.log" || true)
  R[${k}log_warnings]=$(grep -c ' WARN ' "$CFG_DIR/service.log" || true)
  R[${k}stored_mib]=$(psql_db -At -c "SELECT round(pg_database_size('$DB') / 1048576.0)")
  stop_service
  SERVICE_PID=""
}

for config in $CONFIGS; do
  run_config "$config"
done

# ---------------------------------------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------------------------------------
{
  echo "# Homework review, $(date -Is)"
  echo
  echo "$(load_line) | $(nproc) cores | service: ${SERVICE_OPTS:-JVM defaults} | submissions of $FILES x $FILE_KB KiB, seed $SEED"
  echo
  if wanted throughput; then
    echo "## Throughput: $N submissions uploaded ($UPLOAD_CONCURRENCY in flight), then every review awaited"
    echo
    echo "| token delay / concurrency | uploaded in | reviews done / failed / pending | first upload -> last review | reviews/min (client start) | reviews/min (server createdAt -> reviewedAt) | created -> reviewed p50 / max s | one attempt avg s (service timer) | grades | failed attempts | CPU s service / pg / client / other (wall s) | service CPU s per review | load start/end |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for config in $CONFIGS; do
      k="d${config%/*}-c${config#*/}:"
      [ -n "${R[${k}tp_n]:-}" ] || continue
      echo "| ${config%/*} / ${config#*/} | ${R[${k}tp_upload_seconds]} s | ${R[${k}tp_done]} / ${R[${k}tp_failed]} / ${R[${k}tp_pending_at_end]} | ${R[${k}tp_seconds_first_upload_to_last_review]:-n/a} s | **${R[${k}tp_reviews_per_min]:-n/a}** | ${R[${k}tp_reviews_per_min_server]:-n/a} | $(div "$(part ${k}tp_created_to_reviewed_ms p50)" 1000) / $(div "$(part ${k}tp_created_to_reviewed_ms max)" 1000) | ${R[${k}attempt_s_avg]} | ${R[${k}tp_grades]} | ${R[${k}tp_failed_attempts_total]} | ${R[${k}tp_cpu_s_service]:-?} / ${R[${k}tp_cpu_s_postgres]:-?} / ${R[${k}tp_cpu_s_client]} / ${R[${k}tp_cpu_s_other]} (${R[${k}tp_wall_s]}) | $(div "${R[${k}tp_cpu_s_service]:-0}" "${R[${k}tp_done]}" %.2f) | ${R[${k}tp_loadavg_start_end]} |"
    done
    echo
    for config in $CONFIGS; do
      k="d${config%/*}-c${config#*/}:"
      [ -n "${R[${k}tp_n]:-}" ] || continue
      echo "- ${config}: analysis ${R[${k}tp_words_avg]:-?} words on average; review jobs running at once (sampled each second) ${R[${k}tp_jobs_running]:-?}; upload latency during the throughput run ${R[${k}tp_upload_ms]} ms; kinds ${R[${k}tp_kinds]}; grades by kind ${R[${k}tp_grades_by_kind]}; errors ${R[${k}tp_errors]}"
    done
    echo
  fi
  if wanted latency; then
    echo "## Upload latency: $CLIENTS concurrent uploaders, ${DURATION}s measured after ${LAT_WARMUP}s"
    echo
    echo "| token delay / concurrency | run | reviews | review jobs running (min-max) | uploads/s | 201 / other | upload p50 / p90 / p99 / max ms | reviews done in the window | CPU s service / pg / client / other (wall s) | load start/end |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    for config in $CONFIGS; do
      k="d${config%/*}-c${config#*/}:"
      for round in $(seq 1 "$LAT_ROUNDS"); do
        for ph in "held$round" "running$round"; do
          [ -n "${R[${k}${ph}_uploads]:-}" ] || continue
          m="${k}${ph}_upload_ms"
          what=$([ "${ph%%[0-9]*}" = held ] && echo "held back" || echo "running (backlog ${R[${k}${ph}_backlog_at_start]} at start, ${R[${k}${ph}_pending_at_end]} pending at end)")
          echo "| ${config%/*} / ${config#*/} | $ph | $what | ${R[${k}${ph}_jobs_running]} | ${R[${k}${ph}_uploads_per_s]} | ${R[${k}${ph}_uploads_201]} / $(( ${R[${k}${ph}_uploads]} - ${R[${k}${ph}_uploads_201]} )) | $(part $m p50) / $(part $m p90) / **$(part $m p99)** / $(part $m max) | ${R[${k}${ph}_reviews_in_window]:-0} | ${R[${k}${ph}_cpu_s_service]:-?} / ${R[${k}${ph}_cpu_s_postgres]:-?} / ${R[${k}${ph}_cpu_s_client]} / ${R[${k}${ph}_cpu_s_other]} (${R[${k}${ph}_wall_s]}) | ${R[${k}${ph}_loadavg_start_end]} |"
        done
      done
    done
    echo
  fi
  echo "## The service at the end of each configuration"
  echo
  for config in $CONFIGS; do
    k="d${config%/*}-c${config#*/}:"
    echo "- $config: RSS ${R[${k}rss_mib]} MiB (peak ${R[${k}rss_peak_mib]} MiB), heap used after a full GC ${R[${k}heap_mib]} MiB, non-heap ${R[${k}nonheap_mib]} MiB, ${R[${k}threads]} threads; GC: ${R[${k}gc]}; database ${R[${k}stored_mib]} MiB; log lines ERROR ${R[${k}log_errors]}, WARN ${R[${k}log_warnings]}"
  done
} | tee "$RUN_DIR/summary.md"
cat "$RUN_DIR/load.txt" >> "$RUN_DIR/summary.md"
log "raw outputs: $RUN_DIR"
