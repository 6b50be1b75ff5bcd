#!/usr/bin/env bash
# Start-up experiment: time from process start to /actuator/health UP for the fat jar, the extracted jar,
# and the extracted jar with a JDK 25 AOT cache (-XX:AOTCache). Configuration only: no code changes.
#
#   bench/startup.sh            (ROUNDS=2 starts of each variant; results in bench/results/<date>-startup/)
#
# Needs the same as rest-reads.sh: a JDK (bin/find-java), PostgreSQL on 127.0.0.1:5432 (user postgres, trust).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
find_jdk
PORT="${BENCH_PORT:-18182}"
DB="${BENCH_DB:-crs_bench_startup}"
ROUNDS="${ROUNDS:-2}"
export PGHOST=127.0.0.1 PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
RUN_DIR="$ROOT/bench/results/$(date +%Y%m%d-%H%M%S)-startup"
WORK="$RUN_DIR/app"
build_jar_if_missing
mkdir -p "$RUN_DIR"
PID=""

cleanup() {
  set +e
  stop_pid "$PID"
  drop_database
  rm -rf "$WORK"
}
trap cleanup EXIT

# env execs java, so $! of "env ... java &" is the JVM itself
SERVICE_ENV=(env SERVER_PORT="$PORT" SERVER_ADDRESS=127.0.0.1 DATABASE_URL="jdbc:postgresql://$PGHOST:$PGPORT/$DB"
  DATABASE_USER="$PGUSER" ADMIN_TOKEN=startup-bench)

time_start() {   # $1 = label, rest = java arguments; prints the milliseconds to health UP
  local label=$1
  shift
  recreate_database
  local t0 t1
  t0=$(date +%s%N)
  "${SERVICE_ENV[@]}" "$JAVA_HOME/bin/java" "$@" > "$RUN_DIR/$label.log" 2>&1 &
  PID=$!
  await_health 90 "http://127.0.0.1:$PORT" "$PID" "$RUN_DIR/$label.log" "$label"
  t1=$(date +%s%N)
  stop_pid "$PID"
  PID=""
  if curl -s --max-time 1 -o /dev/null "http://127.0.0.1:$PORT/actuator/health"; then
    echo "the $label service still answers after it was stopped" >&2; exit 1
  fi
  echo $(( (t1 - t0) / 1000000 ))
}

echo "extracting the jar into $WORK" >&2
"$JAVA_HOME/bin/java" -Djarmode=tools -jar "$JAR" extract --destination "$WORK" > "$RUN_DIR/extract.log" 2>&1
EXTRACTED="$WORK/$(basename "$JAR")"

echo "training run for the AOT cache" >&2
recreate_database
"${SERVICE_ENV[@]}" "$JAVA_HOME/bin/java" -XX:AOTCacheOutput="$WORK/app.aot" -Dspring.context.exit=onRefresh \
  -jar "$EXTRACTED" > "$RUN_DIR/aot-training.log" 2>&1 || true
[ -f "$WORK/app.aot" ] || { echo "no AOT cache written (see aot-training.log)" >&2; }

{
  echo "# start-up to /actuator/health UP, $(date -Is), loadavg $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
  echo
  echo "| variant | starts (ms) |"
  echo "|---|---|"
  for variant in fat-jar extracted extracted-aot; do
    times=""
    for round in $(seq 1 "$ROUNDS"); do
      case $variant in
        fat-jar) ms=$(time_start "$variant-$round" -jar "$JAR") ;;
        extracted) ms=$(time_start "$variant-$round" -jar "$EXTRACTED") ;;
        extracted-aot)
          [ -f "$WORK/app.aot" ] || continue
          ms=$(time_start "$variant-$round" -XX:AOTCache="$WORK/app.aot" -jar "$EXTRACTED") ;;
      esac
      times="$times $ms"
    done
    echo "| $variant |$times |"
  done
  echo
  echo "loadavg at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$RUN_DIR/summary.md"
