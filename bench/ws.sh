#!/usr/bin/env bash
# WebSocket benchmark of /ws/chat: idle connections (memory per connection) and the token callback timed inside the
# service (100 chats streaming the offline provider's replies with no pacing, under a JFR method trace). Everything on
# this machine. See docs/benchmarks.md. How many students stream at once, with a paced provider: bench/capacity.sh.
#
#   bench/ws.sh
#
# Settings (environment, all optional):
#   BENCH_PORT=18183        port of the service (127.0.0.1 only)
#   BENCH_DB=crs_bench_ws   database created, then dropped, on the local PostgreSQL (127.0.0.1:5432, user postgres)
#   PGPORT=5432 PGUSER=postgres
#   JAVA_OPTS="-Xmx1g"      JVM options of the service; -Dassistant.offline-token-delay=${TOKEN_DELAY} is added
#   TOKEN_DELAY=0ms         the offline provider's pause between tokens (0ms: no pacing)
#   RUNS="idle trace"       which parts to run
#   IDLE_CONNECTIONS=10000  idle connections (each on its own chat)
#   IDLE_HOLD=20            seconds the idle connections are held before the memory is read (pings every 25 s)
#   TOKEN_CONNECTIONS=100   connections (chats) streaming at once in the trace run
#   TRACE_DURATION=15       seconds of the traced token run (JFR method trace of the token callback)
#   CONTENT="Relay?"        the frame content; it decides the reply's length: "Relay?" gives 54 tokens at the first
#                           reply of a chat, 62 from the third on (a question without keywords gives 25)
#   CLIENT_OPTS="-Xmx3g"    JVM options of the load client (bench/WsLoad.java)
#   LABEL=name              added to the results directory name
#   KEEP_DB=1               keeps the database at the end
#
# Raw outputs go to bench/results/<date>-ws<-label>/ (not committed); the summary is printed at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
cd "$ROOT"

PORT="${BENCH_PORT:-18183}"
DB="${BENCH_DB:-crs_bench_ws}"
PGHOST=127.0.0.1
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
TOKEN_DELAY="${TOKEN_DELAY:-0ms}"
SERVICE_OPTS="${JAVA_OPTS:--Xmx1g} -Dassistant.offline-token-delay=$TOKEN_DELAY"
RUNS="${RUNS:-idle trace}"
IDLE_CONNECTIONS="${IDLE_CONNECTIONS:-10000}"
IDLE_HOLD="${IDLE_HOLD:-20}"
TOKEN_CONNECTIONS="${TOKEN_CONNECTIONS:-100}"
TRACE_DURATION="${TRACE_DURATION:-15}"
CONTENT="${CONTENT:-Relay?}"
CLIENT_OPTS="${CLIENT_OPTS:--Xmx3g}"
BASE="http://127.0.0.1:$PORT"
WS="ws://127.0.0.1:$PORT/ws/chat"
STAMP="$(date +%Y%m%d-%H%M%S)"
RUN_DIR="$BENCH_DIR/results/$STAMP-ws${LABEL:+-$LABEL}"
SERVICE_PID=""
CLIENT_PID=""

# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"

# ---------------------------------------------------------------------------------------------------------
# 0. Tools, limits
# ---------------------------------------------------------------------------------------------------------
need_tools curl jq psql ss
# 10,000 connections need 10,000 descriptors on each side (the service inherits this limit)
raise_fd_limit $((IDLE_CONNECTIONS + 1000)) "$IDLE_CONNECTIONS connections"
find_jdk 22
build_jar_if_missing
check_port_free "$BASE" BENCH_PORT
check_database

mkdir -p "$RUN_DIR"
log "results in $RUN_DIR"
STOP_FILE="$RUN_DIR/idle.stop"

cleanup() {
  local status=$?
  set +e
  touch "$STOP_FILE" 2>/dev/null
  if [ -n "$CLIENT_PID" ]; then stop_pid "$CLIENT_PID"; fi
  stop_service
  drop_or_keep_database
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

{
  machine_facts shared_buffers max_connections synchronous_commit fsync wal_level
  echo "service JAVA_OPTS: $SERVICE_OPTS"
  echo "client opts: $CLIENT_OPTS"
  echo "ulimit -n: $(ulimit -n)"
} > "$RUN_DIR/environment.txt"
load_line > "$RUN_DIR/load.txt"

# ---------------------------------------------------------------------------------------------------------
# 1. A fresh database, the service (with -Xmx1g by default), a tenant
# ---------------------------------------------------------------------------------------------------------
recreate_database

ADMIN_TOKEN=$(random_token)
log "starting the service on $BASE with $SERVICE_OPTS"
START_NS=$(date +%s%N)
# shellcheck disable=SC2086
start_jar "$PORT" "$RUN_DIR/service.log" \
  RATE_LIMIT_WS_MESSAGES_PER_SECOND="${RATE_LIMIT_WS_MESSAGES_PER_SECOND:-100000}" \
  LIMIT_WS_CONNECTIONS_PER_TENANT="${LIMIT_WS_CONNECTIONS_PER_TENANT:-100000}" \
  $SERVICE_OPTS -Xlog:gc:file="$RUN_DIR/gc.log"
SERVICE_PID=$!

wait_healthy 120
log "healthy after $(( ($(date +%s%N) - START_NS) / 1000000 )) ms"

create_tenant "ws bench tenant"
log "tenant $TENANT_ID"

client() {   # runs bench/WsLoad.java with the client options
  # shellcheck disable=SC2086
  "$JAVA_HOME/bin/java" $CLIENT_OPTS "$BENCH_DIR/WsLoad.java" "$@"
}

CHATS_FILE="$RUN_DIR/chats.txt"
N_CHATS=$(( IDLE_CONNECTIONS > TOKEN_CONNECTIONS ? IDLE_CONNECTIONS : TOKEN_CONNECTIONS ))
log "creating $N_CHATS chats through POST /api/v1/chats"
client chats base="$BASE" key="$API_KEY" n="$N_CHATS" file="$CHATS_FILE" limit=300 > "$RUN_DIR/chats-result.txt" \
  || die "creating the chats failed"
cat "$RUN_DIR/chats-result.txt" >&2

# ---------------------------------------------------------------------------------------------------------
# Measuring helpers
# ---------------------------------------------------------------------------------------------------------
memory_at_rest() {   # $1 = label; prints "rss_mib heap_used_mib nonheap_used_mib threads"
  local label=$1 out="$RUN_DIR/memory-$1.txt"
  sleep 2
  jcmd "$SERVICE_PID" GC.run > /dev/null
  sleep 1
  jcmd "$SERVICE_PID" GC.run > /dev/null
  sleep 1
  {
    echo "== $label $(date -Is)"
    grep -E '^(VmRSS|VmHWM|RssAnon|RssFile|Threads)' "/proc/$SERVICE_PID/status"
    echo "open fds: $(ls /proc/$SERVICE_PID/fd | wc -l)"
    jcmd "$SERVICE_PID" GC.heap_info
    prom | grep -E '^jvm_(memory_(used|committed|max)_bytes|threads_live|gc_)'
  } > "$out" 2>&1
  local rss heap nonheap threads
  rss=$(awk '/^VmRSS/ {printf "%.1f", $2/1024}' "/proc/$SERVICE_PID/status")
  threads=$(awk '/^Threads/ {print $2}' "/proc/$SERVICE_PID/status")
  heap=$(awk '/^jvm_memory_used_bytes\{area="heap"/ {s+=$NF} END {printf "%.1f", s/1048576}' "$out")
  nonheap=$(awk '/^jvm_memory_used_bytes\{area="nonheap"/ {s+=$NF} END {printf "%.1f", s/1048576}' "$out")
  echo "$rss $heap $nonheap $threads"
}

declare -A R   # results

# ---------------------------------------------------------------------------------------------------------
# 2. Idle connections: heap and RSS per connection
# ---------------------------------------------------------------------------------------------------------
if wanted idle; then
  read -r RSS0 HEAP0 NONHEAP0 THREADS0 < <(memory_at_rest before-idle)
  log "before the idle connections: RSS $RSS0 MiB, heap used $HEAP0 MiB, non-heap $NONHEAP0 MiB, $THREADS0 threads"
  load_line >> "$RUN_DIR/load.txt"
  log "opening $IDLE_CONNECTIONS idle connections"
  rm -f "$STOP_FILE"
  client idle ws="$WS" key="$API_KEY" chats="$CHATS_FILE" n="$IDLE_CONNECTIONS" hold=$((IDLE_HOLD + 600)) \
    stop="$STOP_FILE" open_timeout=400 limit=$((IDLE_HOLD + 1200)) out="$RUN_DIR/idle-result.txt" \
    > "$RUN_DIR/idle-client.out" 2> "$RUN_DIR/idle-client.err" &
  CLIENT_PID=$!
  for _ in $(seq 1 450); do   # up to 450 s for the READY line
    grep -q '^READY' "$RUN_DIR/idle-client.out" 2>/dev/null && break
    kill -0 "$CLIENT_PID" 2>/dev/null || break
    sleep 1
  done
  grep '^READY' "$RUN_DIR/idle-client.out" >&2 || { tail -20 "$RUN_DIR/idle-client.err" >&2; die "the idle client did not get ready"; }
  log "holding them for $IDLE_HOLD s"
  top_snapshot idle 1
  sleep "$IDLE_HOLD"
  load_line >> "$RUN_DIR/load.txt"
  read -r RSS1 HEAP1 NONHEAP1 THREADS1 < <(memory_at_rest with-idle)
  jcmd "$SERVICE_PID" GC.class_histogram 2>/dev/null | head -45 > "$RUN_DIR/histogram-with-idle.txt" || true
  OPEN_NOW=$(prom | awk '/^jetty_.*websocket|^spring_websocket/ {print}' | head -5 || true)
  ESTABLISHED_SOCKETS=$(ss -Htn state established "( sport = :$PORT )" 2>/dev/null | wc -l)
  log "with the idle connections: RSS $RSS1 MiB, heap used $HEAP1 MiB, $THREADS1 threads, $ESTABLISHED_SOCKETS established sockets on the port"
  IDLE_CLIENT_HEAP=$(grep -o 'client_heap_used_mib=[0-9]*' "$RUN_DIR/idle-client.out" | cut -d= -f2)
  touch "$STOP_FILE"
  for _ in $(seq 1 120); do kill -0 "$CLIENT_PID" 2>/dev/null || break; sleep 1; done
  stop_pid "$CLIENT_PID"
  CLIENT_PID=""
  [ -f "$RUN_DIR/idle-result.txt" ] || die "the idle client wrote no result (see $RUN_DIR/idle-client.err)"
  read_results "$RUN_DIR/idle-result.txt"
  sleep 3
  read -r RSS2 HEAP2 NONHEAP2 THREADS2 < <(memory_at_rest after-idle)
  log "after closing them: RSS $RSS2 MiB, heap used $HEAP2 MiB, $THREADS2 threads"
  N_EST=${R[idle_established]}
  {
    echo "idle_rss_before_mib=$RSS0"; echo "idle_heap_before_mib=$HEAP0"; echo "idle_threads_before=$THREADS0"
    echo "idle_rss_with_mib=$RSS1"; echo "idle_heap_with_mib=$HEAP1"; echo "idle_threads_with=$THREADS1"
    echo "idle_nonheap_before_mib=$NONHEAP0"; echo "idle_nonheap_with_mib=$NONHEAP1"
    echo "idle_rss_after_mib=$RSS2"; echo "idle_heap_after_mib=$HEAP2"; echo "idle_threads_after=$THREADS2"
    echo "idle_sockets_established=$ESTABLISHED_SOCKETS"
    echo "idle_heap_per_conn_kib=$(awk -v a="$HEAP1" -v b="$HEAP0" -v n="$N_EST" 'BEGIN {printf "%.1f", (a - b) * 1024 / n}')"
    echo "idle_rss_per_conn_kib=$(awk -v a="$RSS1" -v b="$RSS0" -v n="$N_EST" 'BEGIN {printf "%.1f", (a - b) * 1024 / n}')"
    echo "idle_client_heap_used_mib=$IDLE_CLIENT_HEAP"
  } >> "$RUN_DIR/idle-result.txt"
  read_results "$RUN_DIR/idle-result.txt"
  grep -c 'Pause Full\|Pause Young' "$RUN_DIR/gc.log" > /dev/null || true
fi

# ---------------------------------------------------------------------------------------------------------
# 3. The traced streaming run
# ---------------------------------------------------------------------------------------------------------
stream_run() {   # $1 = name, $2 = connections, $3 = first chat line (offset), $4 = warm-up s, $5 = measured s
  local name=$1 conns=$2 offset=$3 warm=$4 dur=$5
  write_procs "$RUN_DIR/procs.txt" service "$SERVICE_PID"
  sed -n "$((offset + 1)),$((offset + conns))p" "$CHATS_FILE" > "$RUN_DIR/chats-$name.txt"
  load_line >> "$RUN_DIR/load.txt"
  log "$name: $conns connections, warm-up ${warm}s, measure ${dur}s, content \"$CONTENT\""
  top_snapshot "$name" $((warm + dur / 2))
  client stream ws="$WS" key="$API_KEY" chats="$RUN_DIR/chats-$name.txt" conns="$conns" warmup="$warm" \
    duration="$dur" drain=60 content="$CONTENT" prefix="$name" procs="$RUN_DIR/procs.txt" \
    clk_tck="$CLK_TCK" limit=$((warm + dur + 240)) out="$RUN_DIR/$name-result.txt" \
    > "$RUN_DIR/$name-client.out" 2> "$RUN_DIR/$name-client.err" &
  CLIENT_PID=$!
  wait "$CLIENT_PID" || { tail -20 "$RUN_DIR/$name-client.err" >&2; CLIENT_PID=""; die "the $name client failed"; }
  CLIENT_PID=""
  echo "after $name: $(load_line)" >> "$RUN_DIR/load.txt"
  grep '^problem' "$RUN_DIR/$name-client.err" | head -5 >&2 || true
  read_results "$RUN_DIR/$name-result.txt"
  log "$name: ${R[${name}_frames_per_s]} frames/s, ${R[${name}_tokens_per_s]} tokens/s, ${R[${name}_tokens_per_reply_avg]} tokens per reply"
}

# The token callback timed inside the service, without changing it: a JDK 25 JFR method trace (jdk.MethodTrace) of
# ReplyStream.token (build the event, take its seq, keep it for resumes, write the frame to every connection of
# the chat), EventSequence.next and Connection.deliver (the write alone), read by bench/JfrMethodTrace.java.
if wanted trace; then
  cat > "$RUN_DIR/trace.jfc" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="ws token trace">
  <event name="jdk.MethodTrace">
    <setting name="enabled">true</setting>
    <setting name="filter">com.chatreview.conversation.ReplyStream::token;com.chatreview.realtime.Connection::deliver;com.chatreview.conversation.EventSequence::next</setting>
    <setting name="threshold">0 ms</setting>
    <setting name="stackTrace">false</setting>
  </event>
</configuration>
EOF
  jcmd "$SERVICE_PID" JFR.start name=wstrace settings="$RUN_DIR/trace.jfc" > "$RUN_DIR/trace-jfr.txt" 2>&1 \
    || { cat "$RUN_DIR/trace-jfr.txt" >&2; die "JFR.start failed"; }
  stream_run trace "$TOKEN_CONNECTIONS" 0 5 "$TRACE_DURATION"
  jcmd "$SERVICE_PID" JFR.stop name=wstrace filename="$RUN_DIR/trace.jfr" >> "$RUN_DIR/trace-jfr.txt" 2>&1
  "$JAVA_HOME/bin/java" "$BENCH_DIR/JfrMethodTrace.java" "$RUN_DIR/trace.jfr" > "$RUN_DIR/trace-methods.txt" 2>&1 \
    || { cat "$RUN_DIR/trace-methods.txt" >&2; die "reading the method trace failed"; }
  cat "$RUN_DIR/trace-methods.txt" >&2
  read_results "$RUN_DIR/trace-methods.txt"
fi

read -r RSS9 HEAP9 NONHEAP9 THREADS9 < <(memory_at_rest end)
VMHWM=$(awk '/^VmHWM/ {printf "%.0f", $2/1024}' "$RUN_DIR/memory-end.txt")
GC_PAUSES=$(grep -c 'Pause' "$RUN_DIR/gc.log" || true)
FULL_GCS=$(grep 'Pause Full' "$RUN_DIR/gc.log" | grep -vc 'System.gc\|Diagnostic Command\|Heap Inspection' || true)
YOUNG=$(gc_summary "$RUN_DIR/gc.log")
grep -iE 'ERROR|Exception' "$RUN_DIR/service.log" | head -50 > "$RUN_DIR/service-errors.txt" || true
SERVICE_ERRORS=$(grep -ciE ' ERROR |Exception' "$RUN_DIR/service.log" || true)

# ---------------------------------------------------------------------------------------------------------
# 4. Summary
# ---------------------------------------------------------------------------------------------------------
{
  echo "# WebSocket, $(date -Is)"
  echo
  echo "$(load_line) | $(nproc) cores | service: $SERVICE_OPTS | client: $CLIENT_OPTS"
  echo
  if wanted idle; then
    echo "## Idle connections"
    echo
    echo "| connections established / requested | failed | opened in | closed by the server while held | RSS before / with / after MiB | heap used before / with / after MiB (after a full GC) | heap per connection | RSS per connection | threads before / with | target | result |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    echo "| ${R[idle_established]} / ${R[idle_requested]} | ${R[idle_failed_open]} | ${R[idle_open_seconds]} s | ${R[idle_closed_by_server]} (min open ${R[idle_min_open_during_hold]}) | $RSS0 / $RSS1 / $RSS2 | $HEAP0 / $HEAP1 / $HEAP2 | ${R[idle_heap_per_conn_kib]} KiB | ${R[idle_rss_per_conn_kib]} KiB | $THREADS0 / $THREADS1 | $IDLE_CONNECTIONS with heap <= 1 GiB | $(verdict eval 'ge "${R[idle_established]}" "$IDLE_CONNECTIONS" && [ "${R[idle_closed_by_server]}" = 0 ] && lt "$HEAP1" 1024') |"
    echo
    echo "pings received by the client while held: ${R[idle_pings_received]}; close codes: ${R[idle_close_codes]}; client heap ${R[idle_client_heap_used_mib]} MiB"
    echo
  fi
  echo "## Streaming (offline provider, token delay $TOKEN_DELAY)"
  echo
  echo "| run | conns | frames/s | tokens/s | tokens/reply avg (min-max) | send->ended p50 / p99 ms | send->received p50 / p99 ms | started->1st token p50 / p99 ms | token gap p50 / p99 / p99.9 ms | token arrival - server timestamp p50 / p99 ms | seq gaps / repeats / content mismatches / errors / not ended | CPU s service / pg / client / other (of avail) | CPU ms per frame service / pg |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  for n in trace; do
    wanted "$n" || continue
    [ -n "${R[${n}_connections]:-}" ] || continue
    echo "| $n | ${R[${n}_connections]} | ${R[${n}_frames_per_s]} | ${R[${n}_tokens_per_s]} | ${R[${n}_tokens_per_reply_avg]} (${R[${n}_tokens_per_reply_min]}-${R[${n}_tokens_per_reply_max]}) | $(part ${n}_frame_ms p50) / $(part ${n}_frame_ms p99) | $(part ${n}_received_ms p50) / $(part ${n}_received_ms p99) | $(part ${n}_first_token_after_started_ms p50) / $(part ${n}_first_token_after_started_ms p99) | $(part ${n}_token_gap_ms p50) / $(part ${n}_token_gap_ms p99) / $(part ${n}_token_gap_ms p999) | $(part ${n}_token_lag_vs_server_timestamp_ms p50) / $(part ${n}_token_lag_vs_server_timestamp_ms p99) | ${R[${n}_seq_gaps]} / ${R[${n}_seq_repeats]} / ${R[${n}_content_mismatches]} / ${R[${n}_error_events]} / ${R[${n}_not_ended_after_drain]} | ${R[${n}_cpu_s_service]:-?} / ${R[${n}_cpu_s_postgres]:-?} / ${R[${n}_cpu_s_client]} / ${R[${n}_cpu_s_other]} (${R[${n}_cpu_s_available]}) | $(div "${R[${n}_cpu_s_service]:-0}" "$(awk -v f="${R[${n}_frames_per_s]}" -v d="${R[${n}_duration_s]}" 'BEGIN {print f * d / 1000}')" %.2f) / $(div "${R[${n}_cpu_s_postgres]:-0}" "$(awk -v f="${R[${n}_frames_per_s]}" -v d="${R[${n}_duration_s]}" 'BEGIN {print f * d / 1000}')" %.2f) |"
  done
  echo
  echo "load average start/end of the measure: ${R[trace_loadavg_start_end]:-}"
  if wanted trace; then
    echo
    echo "## Inside the service: JFR method trace during the trace run (wall time of each call)"
    echo
    echo "| method | calls | p50 ms | p99 ms | p99.9 ms | max ms | target | result |"
    echo "|---|---|---|---|---|---|---|---|"
    echo "| token callback (ReplyStream.token: token handed over -> frame written to every connection) | ${R[trace_callback_calls]:-} | ${R[trace_callback_p50_ms]:-} | ${R[trace_callback_p99_ms]:-} | ${R[trace_callback_p999_ms]:-} | ${R[trace_callback_max_ms]:-} | p99 < 1 ms | $(verdict lt "${R[trace_callback_p99_ms]:-}" 1) |"
    echo "| of which the write (Connection.deliver) | ${R[trace_deliver_calls]:-} | ${R[trace_deliver_p50_ms]:-} | ${R[trace_deliver_p99_ms]:-} | ${R[trace_deliver_p999_ms]:-} | ${R[trace_deliver_max_ms]:-} | | |"
    echo "| of which the seq (EventSequence.next; a database round trip every 1,000) | ${R[trace_next_calls]:-} | ${R[trace_next_p50_ms]:-} | ${R[trace_next_p99_ms]:-} | ${R[trace_next_p999_ms]:-} | ${R[trace_next_max_ms]:-} | | |"
    echo
    echo "token callbacks over 1 ms: ${R[trace_callback_over_1ms]:-}, over 10 ms: ${R[trace_callback_over_10ms]:-}, over 100 ms: ${R[trace_callback_over_100ms]:-}"
  fi
  echo
  echo "service at the end: RSS $RSS9 MiB (peak $VMHWM MiB), heap used after a full GC $HEAP9 MiB, $THREADS9 threads;"
  echo "GC: $GC_PAUSES pauses logged, $YOUNG; full GCs not asked for by the bench: $FULL_GCS"
  echo "service log lines with ERROR/Exception: $SERVICE_ERRORS"
} | tee "$RUN_DIR/summary.md"
cat "$RUN_DIR/load.txt" >> "$RUN_DIR/summary.md"
log "raw outputs: $RUN_DIR"
