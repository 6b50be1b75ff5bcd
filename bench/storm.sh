#!/usr/bin/env bash
# A handshake storm on one node (issue 20 (b)): CONNECTIONS WebSocket connects to /ws/chat started at RATE per second
# across TENANTS tenants (one chat per connection), each client following the documented policy on
# SERVICE_UNAVAILABLE / 1013 (retry_after_ms +-50 %, then doubling, at most 30 s and 6 tries). Records the outcome of
# every try, the connect time of the admitted ones, the admitted ones per second; holds the connections HOLD seconds,
# then closes them. Everything on this machine. See docs/benchmarks.md, "Faults: a handshake storm".
#
#   bench/storm.sh
#
# Settings (environment, all optional):
#   BENCH_PORT=18185          port of the service (127.0.0.1 only)
#   BENCH_DB=crs_bench_storm  database created, then dropped, on the local PostgreSQL (127.0.0.1:5432, user postgres)
#   PGPORT=5432 PGUSER=postgres
#   JAVA_OPTS="-Xmx1g"        JVM options of the service
#   CONNECTIONS=10000         connects in the storm (connection i on chat i)
#   RATE=500                  connects started per second
#   TENANTS=200               tenants; CONNECTIONS / TENANTS chats each (the per-tenant cap,
#                             LIMIT_WS_CONNECTIONS_PER_TENANT, stays at its default of 50 unless set)
#   TRIES=6                   tries per client (the documented policy)
#   HOLD=5                    seconds the established connections are held before they are closed
#   CLIENT_OPTS="-Xmx1g"      JVM options of the load client (bench/StormLoad.java)
#   LABEL=name                added to the results directory name
#   KEEP_DB=1                 keeps the database at the end
# The service's own settings (REALTIME_HANDSHAKE_CONCURRENCY, ...) are passed through from the environment.
#
# Raw outputs go to bench/results/<date>-storm<-label>/ (not committed); the summary is printed at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
cd "$ROOT"

PORT="${BENCH_PORT:-18185}"
DB="${BENCH_DB:-crs_bench_storm}"
PGHOST=127.0.0.1
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
SERVICE_OPTS="${JAVA_OPTS:--Xmx1g}"
CONNECTIONS="${CONNECTIONS:-10000}"
RATE="${RATE:-500}"
TENANTS="${TENANTS:-200}"
TRIES="${TRIES:-6}"
HOLD="${HOLD:-5}"
CLIENT_OPTS="${CLIENT_OPTS:--Xmx1g}"
BASE="http://127.0.0.1:$PORT"
WS="ws://127.0.0.1:$PORT/ws/chat"
STAMP="$(date +%Y%m%d-%H%M%S)"
RUN_DIR="$BENCH_DIR/results/$STAMP-storm${LABEL:+-$LABEL}"
SERVICE_PID=""
CLIENT_PID=""

# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"

# ---------------------------------------------------------------------------------------------------------
# 0. Tools, limits
# ---------------------------------------------------------------------------------------------------------
need_tools curl jq psql
[ $((CONNECTIONS % TENANTS)) = 0 ] || die "CONNECTIONS ($CONNECTIONS) must be a multiple of TENANTS ($TENANTS)"
# CONNECTIONS sockets on each side (the service inherits this limit), plus the turned-away ones being closed
raise_fd_limit $((CONNECTIONS + 2000)) "$CONNECTIONS connections"
find_jdk 22
build_jar_if_missing
check_port_free "$BASE" BENCH_PORT
check_database

mkdir -p "$RUN_DIR"
log "results in $RUN_DIR"

cleanup() {
  local status=$?
  set +e
  if [ -n "$CLIENT_PID" ]; then stop_pid "$CLIENT_PID"; fi
  stop_service
  drop_or_keep_database
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

{
  machine_facts shared_buffers max_connections synchronous_commit fsync
  echo "service JAVA_OPTS: $SERVICE_OPTS"
  echo "client opts: $CLIENT_OPTS"
  echo "ulimit -n: $(ulimit -n)"
  echo "REALTIME_HANDSHAKE_CONCURRENCY=${REALTIME_HANDSHAKE_CONCURRENCY:-default} LIMIT_WS_CONNECTIONS_PER_TENANT=${LIMIT_WS_CONNECTIONS_PER_TENANT:-default}"
} > "$RUN_DIR/environment.txt"
UPTIME_BEFORE="$(uptime)"
echo "before: $UPTIME_BEFORE" > "$RUN_DIR/uptime.txt"

# ---------------------------------------------------------------------------------------------------------
# 1. A fresh database, the service, the tenants and their chats
# ---------------------------------------------------------------------------------------------------------
recreate_database

ADMIN_TOKEN=$(random_token)
log "starting the service on $BASE with $SERVICE_OPTS"
# shellcheck disable=SC2086
start_jar "$PORT" "$RUN_DIR/service.log" $SERVICE_OPTS -Xlog:gc:file="$RUN_DIR/gc.log"
SERVICE_PID=$!
wait_healthy 120
log "healthy"

client() {   # runs bench/StormLoad.java with the client options
  # shellcheck disable=SC2086
  "$JAVA_HOME/bin/java" $CLIENT_OPTS "$BENCH_DIR/StormLoad.java" "$@"
}

CHATS_FILE="$RUN_DIR/chats.txt"
log "creating $TENANTS tenants and $((CONNECTIONS / TENANTS)) chats each"
client setup base="$BASE" admin="$ADMIN_TOKEN" tenants="$TENANTS" chats_per_tenant=$((CONNECTIONS / TENANTS)) \
  file="$CHATS_FILE" limit=600 > "$RUN_DIR/setup-result.txt" 2> "$RUN_DIR/setup.err" \
  || { tail -20 "$RUN_DIR/setup.err" >&2; die "the setup failed"; }
cat "$RUN_DIR/setup-result.txt" >&2

# ---------------------------------------------------------------------------------------------------------
# 2. The storm
# ---------------------------------------------------------------------------------------------------------
sleep 5   # let the set-up's load settle
UPTIME_START="$(uptime)"
echo "storm start: $UPTIME_START" >> "$RUN_DIR/uptime.txt"
log "storm: $CONNECTIONS connects at $RATE/s, $TRIES tries each, hold $HOLD s"
top_snapshot storm $((CONNECTIONS / RATE / 2))
client storm ws="$WS" chats="$CHATS_FILE" n="$CONNECTIONS" rate="$RATE" tries="$TRIES" hold="$HOLD" \
  limit=$((CONNECTIONS / RATE + HOLD + 400)) out="$RUN_DIR/storm-result.txt" \
  > "$RUN_DIR/storm-client.out" 2> "$RUN_DIR/storm-client.err" &
CLIENT_PID=$!
for _ in $(seq 1 $((CONNECTIONS / RATE + 300))); do   # the READY line: the storm is over, the hold begins
  grep -q '^READY' "$RUN_DIR/storm-client.out" 2>/dev/null && break
  kill -0 "$CLIENT_PID" 2>/dev/null || break
  sleep 1
done
UPTIME_END="$(uptime)"
echo "storm end: $UPTIME_END" >> "$RUN_DIR/uptime.txt"
HELD_SOCKETS=$(ss -Htn state established "( sport = :$PORT )" 2>/dev/null | wc -l || echo "?")
wait "$CLIENT_PID" || { tail -20 "$RUN_DIR/storm-client.err" >&2; CLIENT_PID=""; die "the storm client failed"; }
CLIENT_PID=""
sleep 3
OPEN_AFTER=$(ss -Htn state established "( sport = :$PORT )" 2>/dev/null | wc -l || echo "?")
UPTIME_AFTER="$(uptime)"
echo "after: $UPTIME_AFTER" >> "$RUN_DIR/uptime.txt"

declare -A R
read_results "$RUN_DIR/storm-result.txt"
SERVICE_ERRORS=$(grep -ciE ' ERROR |Exception' "$RUN_DIR/service.log" || true)
grep -iE ' ERROR |Exception' "$RUN_DIR/service.log" | head -50 > "$RUN_DIR/service-errors.txt" || true
SERVICE_WARN_ADMIT=$(grep -c 'could not be admitted' "$RUN_DIR/service.log" || true)
GC_PAUSES=$(grep -c 'Pause' "$RUN_DIR/gc.log" || true)

# ---------------------------------------------------------------------------------------------------------
# 3. Summary
# ---------------------------------------------------------------------------------------------------------
{
  echo "# Handshake storm, $(date -Is)"
  echo
  echo "$(nproc) cores | service: $SERVICE_OPTS | client: $CLIENT_OPTS | git $(git rev-parse --short HEAD)"
  echo
  echo "| connects | rate | tenants | established | gave up after $TRIES tries | other refusals | timeouts (tries) | failed tries | 1011 closes | turned away (tries) / closed 1013 | peak handshakes in flight | connect p50 / p90 / p99 / max ms (admitted) | admitted/s mean / during the starts / peak | last admitted at |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  echo "| ${R[requested]} | ${R[rate_per_s]}/s (starts took ${R[starts_seconds]} s) | $TENANTS | ${R[established]} | ${R[gave_up_after_all_tries]} | ${R[other_refusals]} | ${R[timeouts_total]} | ${R[failed_tries_total]} | ${R[closes_1011]} | ${R[turned_away_total]} / ${R[turned_away_closed_1013]} | ${R[peak_handshakes_in_flight]} | $(part connect_ms_admitted p50) / $(part connect_ms_admitted p90) / $(part connect_ms_admitted p99) / $(part connect_ms_admitted max) | ${R[admitted_per_s_mean]} / ${R[admitted_per_s_during_starts]} / ${R[admitted_per_s_peak]} | ${R[last_admitted_at_s]} s |"
  echo
  echo "| try | started | admitted | turned away (SERVICE_UNAVAILABLE) | timeouts | failed |"
  echo "|---|---|---|---|---|---|"
  for t in $(seq 1 "$TRIES"); do
    v="${R[try$t]:-}"
    echo "| $t | $(part try$t started) | $(part try$t admitted) | $(part try$t turned_away) | $(part try$t timeouts) | $(part try$t failed) |"
  done
  echo
  echo "connect ms, admitted at the first try: ${R[connect_ms_first_try]}; after retries: ${R[connect_ms_after_retries]}"
  echo "retry_after_ms seen: ${R[retry_after_ms_seen]}; other first events: ${R[other_first_events]}; failures: ${R[failures]}"
  echo "admitted per second: ${R[admitted_per_second]}"
  echo "turned away per second: ${R[turned_away_per_second]}"
  echo "first tries per second: ${R[first_tries_per_second]}"
  echo "held ${R[held_seconds]} s: min open ${R[min_open_during_hold]}, sockets established on the port $HELD_SOCKETS, closed by the server ${R[closed_by_server_while_established]}, errors ${R[errors_while_established]}"
  echo "closing: ${R[close_sent]} sent, ${R[close_send_failed]} failed, ${R[close_not_answered]} not answered within 30 s, ${R[close_seconds]} s; sockets still established 3 s later: $OPEN_AFTER"
  echo "close codes: ${R[close_codes]}"
  echo "service log: $SERVICE_ERRORS lines with ERROR/Exception, $SERVICE_WARN_ADMIT 'could not be admitted'; GC pauses logged: $GC_PAUSES; client heap ${R[client_heap_used_mib]} MiB"
  echo
  echo "targets: all $CONNECTIONS established within the tries, none 1011: $(verdict eval '[ "${R[established]}" = "$CONNECTIONS" ] && [ "${R[closes_1011]}" = 0 ]'); median connect of the admitted under 1 s: $(verdict lt "$(part connect_ms_admitted p50)" 1000)"
  echo
  echo "uptime before: $UPTIME_BEFORE"
  echo "uptime storm start: $UPTIME_START"
  echo "uptime storm end: $UPTIME_END"
  echo "uptime after: $UPTIME_AFTER"
} | tee "$RUN_DIR/summary.md"
log "raw outputs: $RUN_DIR"
