#!/usr/bin/env bash
# A PostgreSQL outage under traffic (issue 20 (c)): the service runs on a PostgreSQL cluster of this script's own
# (initdb on a free port, never the shared server), 8 REST readers, a readiness probe every 250 ms, a WebSocket
# connect every 500 ms and a frame a second on an open connection run for WARM + OUTAGE + AFTER seconds; the
# database is stopped (pg_ctl stop -m fast) after WARM seconds and started again OUTAGE seconds later. Prints the
# answers by kind and status before, during and after the outage and the time to recover. See docs/benchmarks.md,
# "Faults: a database outage".
#
#   bench/outage.sh
#
# Settings (environment, all optional): BENCH_PORT=18186, BENCH_PG_PORT=55433, WARM=10, OUTAGE=20, AFTER=20,
# READERS=8, JAVA_OPTS="-Xmx1g" (the service's), LABEL=name (added to the results directory's name).
# Raw outputs go to bench/results/<date>-outage<-label>/ (not committed).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
cd "$ROOT"

PORT="${BENCH_PORT:-18186}"
PG_PORT="${BENCH_PG_PORT:-55433}"
WARM="${WARM:-10}"
OUTAGE="${OUTAGE:-20}"
AFTER="${AFTER:-20}"
READERS="${READERS:-8}"
SERVICE_OPTS="${JAVA_OPTS:--Xmx1g}"
BASE="http://127.0.0.1:$PORT"
RUN_DIR="$BENCH_DIR/results/$(date +%Y%m%d-%H%M%S)-outage${LABEL:+-$LABEL}"
SERVICE_PID=""
CLIENT_PID=""
ADMIN_TOKEN=bench

# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"

need_tools curl jq
PG_BIN="/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -V | tail -1)/bin"
[ -x "$PG_BIN/initdb" ] || die "no PostgreSQL server binaries under /usr/lib/postgresql"
# PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
check_port_free "$BASE" BENCH_PORT
find_jdk 22
build_jar_if_missing

mkdir -p "$RUN_DIR"
PG_DIR="$(mktemp -d)"
[ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
log "results in $RUN_DIR; PostgreSQL cluster in $PG_DIR on port $PG_PORT"

pg_start() { as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1" start >/dev/null; }
pg_stop() { as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null; }
cleanup() {
  local status=$?
  set +e
  [ -n "$CLIENT_PID" ] && stop_pid "$CLIENT_PID"
  [ -n "$SERVICE_PID" ] && stop_pid "$SERVICE_PID"
  pg_stop 2>/dev/null
  cp "$PG_DIR/postgres.log" "$RUN_DIR/" 2>/dev/null
  rm -rf "$PG_DIR"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A trust >/dev/null
pg_start

{
  echo "date: $(date -Is)"
  echo "host: $(nproc) cores, $(free -m | awk '/Mem:/ {print $2}') MiB"
  echo "java: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
  echo "postgres: $("$PG_BIN/postgres" --version)"
  echo "git: $(git rev-parse --short HEAD)"
  echo "service JAVA_OPTS: $SERVICE_OPTS"
  echo "before: $(uptime)"
} > "$RUN_DIR/environment.txt"

log "starting the service on $BASE"
# shellcheck disable=SC2086
SERVER_PORT="$PORT" SERVER_ADDRESS=127.0.0.1 \
DATABASE_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/postgres" DATABASE_USER=postgres \
ADMIN_TOKEN="$ADMIN_TOKEN" RATE_LIMIT_REST_PER_MINUTE=100000000 RATE_LIMIT_WS_MESSAGES_PER_SECOND=100 \
  "$JAVA_HOME/bin/java" $SERVICE_OPTS -jar "$JAR" > "$RUN_DIR/service.log" 2>&1 &
SERVICE_PID=$!
wait_healthy 120
create_tenant outage
KEY=$API_KEY
CHAT=$(curl -sf -XPOST -H "X-API-Key: $KEY" -H 'Content-Type: application/json' "$BASE/api/v1/chats" \
  -d '{"user_id":"outage"}' | jq -r .id)

MARKS="$RUN_DIR/marks.txt"
: > "$MARKS"
log "load for $((WARM + OUTAGE + AFTER)) s; PostgreSQL stops after $WARM s for $OUTAGE s"
"$JAVA_HOME/bin/java" -Xmx512m "$BENCH_DIR/OutageLoad.java" base="$BASE" key="$KEY" chat="$CHAT" \
  seconds=$((WARM + OUTAGE + AFTER)) readers="$READERS" marks="$MARKS" > "$RUN_DIR/result.md" 2> "$RUN_DIR/client.err" &
CLIENT_PID=$!
sleep "$WARM"
echo "stopped=$(date +%s%3N)" >> "$MARKS"
pg_stop
log "PostgreSQL stopped"
echo "during: $(uptime)" >> "$RUN_DIR/environment.txt"
sleep "$OUTAGE"
pg_start
echo "started=$(date +%s%3N)" >> "$MARKS"
log "PostgreSQL started again"
wait "$CLIENT_PID" || { tail -20 "$RUN_DIR/client.err" >&2; CLIENT_PID=""; die "the load client failed"; }
CLIENT_PID=""
echo "after: $(uptime)" >> "$RUN_DIR/environment.txt"
grep -c ' ERROR ' "$RUN_DIR/service.log" > "$RUN_DIR/service-errors.txt" || true
cat "$RUN_DIR/result.md"
echo
echo "ERROR lines in the service's log: $(cat "$RUN_DIR/service-errors.txt")"
cat "$RUN_DIR/environment.txt"
