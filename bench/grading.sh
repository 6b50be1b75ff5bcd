#!/usr/bin/env bash
# Grading benchmark: does the grade tell correct work from wrong work? One node, the offline provider, the tasks of
# bench/grading/tasks/ (each a task, a reference solution, the teacher's pytest tests and submissions: correct,
# correct written otherwise, subtly wrong, empty, not compiling; and one hostile submission per task, made here).
# Every task is published twice, with its tests and without them, and every submission uploaded to both. Prints how
# often the grade ranks each correct submission above each wrong one (by points and by letter), how many wrong ones
# got an A or B, and what a run of the tests costs. See docs/benchmarks.md, section "Grading".
#
#   bench/grading.sh
#
# Settings (environment, all optional):
#   BENCH_PORT=18186            port of the service (127.0.0.1 only)
#   BENCH_DB=crs_bench_grading  database created, then dropped, on the local PostgreSQL (127.0.0.1:5432, user postgres)
#   TASKS=all                   task directory names to run (space-separated), or all
#   REVIEW_TIMEOUT=900          seconds to wait for every review at most
#   LABEL=name                  added to the results directory name
#   KEEP_DB=1                   keeps the database at the end
# Raw outputs go to bench/results/<date>-grading<-label>/ (not committed); the summary is printed at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
cd "$ROOT"

PORT="${BENCH_PORT:-18186}"
DB="${BENCH_DB:-crs_bench_grading}"
PGHOST=127.0.0.1
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
TASKS="${TASKS:-all}"
REVIEW_TIMEOUT="${REVIEW_TIMEOUT:-900}"
BASE="http://127.0.0.1:$PORT"
STAMP="$(date +%Y%m%d-%H%M%S)"
RUN_DIR="$BENCH_DIR/results/$STAMP-grading${LABEL:+-$LABEL}"
TASK_DIR="$BENCH_DIR/grading/tasks"
SERVICE_PID=""

. "$BENCH_DIR/lib.sh"

need_tools curl jq psql
find_jdk 21
build_jar_if_missing
check_port_free "$BASE" BENCH_PORT
check_database
mkdir -p "$RUN_DIR"
log "results in $RUN_DIR"
STOP_WAIT=45

cleanup() {
  local status=$?
  set +e
  stop_service
  drop_or_keep_database
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A submission that attacks the machine it runs on: it forks, loops, and tries the network; contained by the sandbox,
# it fails every test
read -r -d '' HOSTILE <<'EOF' || true
import os, socket, threading
def _attack():
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=1)
    except OSError:
        pass
    for _ in range(200):
        try:
            os.fork()
        except OSError:
            break
    while True:
        pass
threading.Thread(target=_attack, daemon=True).start()
_attack()
EOF

load_line > "$RUN_DIR/load.txt"
recreate_database
ADMIN_TOKEN=$(random_token)
start_jar "$PORT" "$RUN_DIR/service.log" ASSISTANT_OFFLINETOKENDELAY=0ms
SERVICE_PID=$!
wait_healthy 180
create_tenant "grading bench tenant"
COURSE=$(curl -sf -X POST "$BASE/v1/courses" -H "x-tenant-api-secret: $API_KEY" -H 'Content-Type: application/json' \
  -d '{"teacherId":"teacher-bench","name":"Algorithms"}' | jq -r .id) || die "creating the course failed"

publish() {   # $1 = task dir, $2 = with|without: prints the homework's id
  local dir=$1 mode=$2 name
  name=$(basename "$dir")
  jq -n --arg course "$COURSE" --arg name "$name-$mode" --rawfile task "$dir/task.md" \
      --rawfile solution "$dir/reference.py" --rawfile tests "$dir/test_solution.py" --arg mode "$mode" \
      '{teacherId: "teacher-bench", courseId: $course, assignmentId: $name,
        files: ([{fileType: "task", fileName: "task.md", content: $task},
                 {fileType: "solution", fileName: "reference.py", content: $solution}]
                + (if $mode == "with" then [{fileType: "test", fileName: "test_solution.py", content: $tests}]
                   else [] end))}' \
    | curl -sf -X POST "$BASE/v1/homeworks" -H "x-tenant-api-secret: $API_KEY" -H 'Content-Type: application/json' \
        -d @- | jq -r .id
}

upload() {   # $1 = homework id, $2 = student id, $3 = file: prints the submission's id
  curl -sf -X POST "$BASE/v1/homeworks/$1/submissions" -H "x-tenant-api-secret: $API_KEY" \
    -F "studentId=$2" -F "files=@$3;filename=solution.py;type=text/x-python" | jq -r .id
}

: > "$RUN_DIR/submissions.tsv"
started=$(date +%s%N)
for dir in "$TASK_DIR"/*/; do
  task=$(basename "$dir")
  if [ "$TASKS" != all ] && ! [[ " $TASKS " == *" $task "* ]]; then continue; fi
  printf '%s' "$HOSTILE" > "$RUN_DIR/hostile-$task.py"
  for mode in with without; do
    homework=$(publish "$dir" "$mode")
    [[ "$homework" =~ ^[0-9a-f-]{36}$ ]] || die "publishing $task ($mode tests) failed: $homework"
    for file in "$dir"/submissions/*.py "$RUN_DIR/hostile-$task.py"; do
      kind=$(basename "$file" .py)
      kind=${kind%%-*}
      submission=$(upload "$homework" "student-$task-$kind" "$file")
      printf '%s\t%s\t%s\t%s\t%s\n' "$task" "$mode" "$kind" "$homework" "$submission" >> "$RUN_DIR/submissions.tsv"
    done
  done
done
total=$(wc -l < "$RUN_DIR/submissions.tsv")
log "$total submissions uploaded; waiting for their reviews"

deadline=$(( $(date +%s) + REVIEW_TIMEOUT ))
while :; do
  pending=$(psql_db -At -c "SELECT count(*) FROM submissions WHERE review_state IN ('pending', 'waiting_for_budget')")
  [ "$pending" = 0 ] && break
  [ "$(date +%s)" -lt "$deadline" ] || die "$pending reviews still pending after $REVIEW_TIMEOUT s"
  sleep 1
done
elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
echo "after the reviews: $(load_line)" >> "$RUN_DIR/load.txt"

# what each review came to: task, mode, kind, grade, points, tests' state and passed/total, the run's duration
psql_db -At -F $'\t' -c "
  SELECT s.id, s.grade,
         coalesce((SELECT sum((c->>'points')::int) FROM jsonb_array_elements(s.criteria) c), 0),
         coalesce(s.tests->>'state', '-'), coalesce(s.tests->>'passed', '-'), coalesce(s.tests->>'total', '-'),
         coalesce(s.tests->>'durationMs', '-'), s.review_state
  FROM submissions s" > "$RUN_DIR/reviews.tsv"
awk -F'\t' 'NR == FNR {r[$1] = $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 "\t" $8; next}
            {print $1 "\t" $2 "\t" $3 "\t" r[$5]}' "$RUN_DIR/reviews.tsv" "$RUN_DIR/submissions.tsv" \
  > "$RUN_DIR/results.tsv"

awk -F'\t' -v elapsed="$elapsed_ms" '
  function rank(letter) { return index("ABCDEF", letter) }
  {
    task = $1; mode = $2; kind = $3; grade[task, mode, kind] = $4; points[task, mode, kind] = $5
    tasks[task] = 1; modes[mode] = 1
    if ($4 != "" && kind ~ /^(wrong|empty|broken|hostile)$/ && rank($4) <= 2) good_wrong[mode, kind]++
    if ($10 != "done") not_done++
    n[mode, kind]++
  }
  END {
    split("correct otherwise", right, " "); split("wrong empty broken hostile", wrong, " ")
    for (mode in modes) {
      pairs = 0; by_points = 0; by_letter = 0
      for (task in tasks) for (i = 1; i <= 2; i++) for (j = 1; j <= 4; j++) {
        if (!((task, mode, right[i]) in points) || !((task, mode, wrong[j]) in points)) continue
        pairs++
        if (points[task, mode, right[i]] > points[task, mode, wrong[j]]) by_points++
        if (rank(grade[task, mode, right[i]]) < rank(grade[task, mode, wrong[j]])) by_letter++
      }
      printf "%s tests: correct above wrong in %d of %d pairs by points (%.1f%%), %d by letter (%.1f%%)\n", \
        mode, by_points, pairs, 100 * by_points / pairs, by_letter, 100 * by_letter / pairs
      for (j = 1; j <= 4; j++) printf "  %s: %d of %d got A or B\n", wrong[j], good_wrong[mode, wrong[j]], n[mode, wrong[j]]
      for (i = 1; i <= 2; i++) {
        a = 0; for (task in tasks) if (rank(grade[task, mode, right[i]]) == 1) a++
        printf "  %s: %d of %d got an A\n", right[i], a, n[mode, right[i]]
      }
    }
    printf "all %d reviews done in %.1f s (%.1f reviews a minute, tests and reviews together)\n", NR, elapsed / 1000, NR * 60000 / elapsed
    if (not_done > 0) printf "WARNING: %d reviews did not end done\n", not_done
  }' "$RUN_DIR/results.tsv" | tee "$RUN_DIR/summary.txt"
# the runs' wall times, each the whole run in its sandbox (start, copy, interpreter, tests, results)
awk -F'\t' '$2 == "with" && $9 != "-" {print $9}' "$RUN_DIR/results.tsv" | sort -n | awk '
  {d[NR] = $1; sum += $1}
  END {if (NR > 0) printf "test runs: %d, mean %.0f ms, median %d ms, p95 %d ms of wall time each; %.0f runs a minute on one core at the mean\n",
         NR, sum / NR, d[int((NR + 1) / 2)], d[int(NR * 0.95 + 0.5)], 60000 / (sum / NR)}' | tee -a "$RUN_DIR/summary.txt"
log "details: $RUN_DIR/results.tsv (task, mode, kind, grade, points, tests state, passed, total, ms, review state)"
