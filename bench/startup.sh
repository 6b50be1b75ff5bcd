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
. "$ROOT/bin/find-java"
PORT="${BENCH_PORT:-18182}"
DB="${BENCH_DB:-crs_bench_startup}"
ROUNDS="${ROUNDS:-2}"
export PGHOST=127.0.0.1 PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
RUN_DIR="$ROOT/bench/results/$(date +%Y%m%d-%H%M%S)-startup"
WORK="$RUN_DIR/app"
JAR="$ROOT/target/chat-review-service.jar"
[ -f "$JAR" ] || ./mvnw -q -o -DskipTests -Dspotless.check.skip=true package
mkdir -p "$RUN_DIR"
PID=""

cleanup() {
  set +e
  [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null && { kill -TERM "$PID"; wait "$PID" 2>/dev/null; }
  psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

fresh_db() {
  psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
  psql -X -q -d postgres -c "CREATE DATABASE $DB" >/dev/null
}

# env execs java, so $! of "env ... java &" is the JVM itself
SERVICE_ENV=(env SERVER_PORT="$PORT" SERVER_ADDRESS=127.0.0.1 DATABASE_URL="jdbc:postgresql://$PGHOST:$PGPORT/$DB"
  DATABASE_USER="$PGUSER" ADMIN_TOKEN=startup-bench)

time_start() {   # $1 = label, rest = java arguments; prints the milliseconds to health UP
  local label=$1
  shift
  fresh_db
  local t0 t1
  t0=$(date +%s%N)
  "${SERVICE_ENV[@]}" "$JAVA_HOME/bin/java" "$@" > "$RUN_DIR/$label.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 1800); do
    if curl -s --max-time 1 "http://127.0.0.1:$PORT/actuator/health" 2>/dev/null | grep -q '"status":"UP"'; then
      break
    fi
    kill -0 "$PID" 2>/dev/null || { echo "$label exited" >&2; tail -20 "$RUN_DIR/$label.log" >&2; exit 1; }
    sleep 0.05
  done
  t1=$(date +%s%N)
  kill -TERM "$PID"; wait "$PID" 2>/dev/null || true
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
fresh_db
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
