#!/usr/bin/env bash
# Token relay across two nodes: how much later a chat's events reach a client on the other node than a client on the
# node that produced them. A Redis of its own, one database, two service nodes (two JVMs of the jar, same
# DATABASE_URL and REDIS_URL); for each of STREAMS chats one WebSocket on node A and one on node B, in one client
# process (one clock); node A's socket sends a frame, the next when the reply has ended; both sockets receive every
# event of the chat's sequence through the chat's Redis stream (node A's own connections too: docs/cluster.md), and the
# client compares, per (chat, seq), the arrival at B with the arrival at A. Everything on 127.0.0.1.
#
#   bench/relay.sh
#   STREAMS=10 DURATION=10 LABEL=smoke bench/relay.sh      # a short check that it works (about a minute)
#
# Settings (environment, all optional):
#   STREAMS=100             concurrent streams: chats, each with a socket on A (the sender) and one on B
#   WARMUP=10 DURATION=60   seconds of warm-up (streaming, not measured) and of measure
#   ROUNDS=0                when > 0, instead of DURATION: measure this many frames per chat (at most MAX_MEASURE=600 s)
#   DRAIN=30                seconds at most to wait, after the measure, for the replies in flight to end on both sides
#   TOKEN_DELAY=15ms        the offline provider's pause between tokens (the service's default)
#   CONTENT="Relay?"        the frame content; "Relay?" gives 54 tokens at a chat's first reply, 62 from the third on
#   NODE_A_PORT=18185 NODE_B_PORT=18186   the nodes' ports (127.0.0.1 only)
#   REDIS_PORT=18190        first port tried for the Redis of the run (the next free one is taken)
#   BENCH_DB=crs_bench_relay   database created, then dropped, on the local PostgreSQL (127.0.0.1:5432, user postgres)
#   PGPORT=5432 PGUSER=postgres
#   JAVA_OPTS="-Xmx1g -XX:+UseZGC"  JVM options of each node (the GC bin/run uses)
#   CLIENT_OPTS="-Xmx1g -XX:+UseZGC"   JVM options of the load client (bench/RelayLoad.java); ZGC: a stop-the-world
#                           pause of the client between reading A's copy of an event and B's would show as B - A
#   CLIENT_THREADS=2        executor threads of each of the client's two HttpClients
#   LABEL=name              added to the results directory name
#   KEEP_DB=1               keeps the database at the end
# Any other variable of the service (DATABASE_POOL_SIZE, ...) passes through to both nodes.
#
# Raw outputs go to bench/results/<date>-relay<-label>/ (not committed): the client's key=value results and log, every
# measured event (events.tsv.gz: chat, seq, type, arrival at A and at B, server timestamp), both nodes' logs, GC and
# safepoint logs with wall times (to line outliers up with pauses), Redis's commandstats before and after, load
# averages, top during the measure; the summary (summary.md) is printed at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
cd "$ROOT"

PORT_A="${NODE_A_PORT:-18185}"
PORT_B="${NODE_B_PORT:-18186}"
DB="${BENCH_DB:-crs_bench_relay}"
PGHOST=127.0.0.1
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
STREAMS="${STREAMS:-100}"
WARMUP="${WARMUP:-10}"
DURATION="${DURATION:-60}"
ROUNDS="${ROUNDS:-0}"
MAX_MEASURE="${MAX_MEASURE:-600}"
DRAIN="${DRAIN:-30}"
TOKEN_DELAY="${TOKEN_DELAY:-15ms}"
CONTENT="${CONTENT:-Relay?}"
SERVICE_OPTS="${JAVA_OPTS:--Xmx1g -XX:+UseZGC}"
CLIENT_OPTS="${CLIENT_OPTS:--Xmx1g -XX:+UseZGC}"
CLIENT_THREADS="${CLIENT_THREADS:-2}"
BASE_A="http://127.0.0.1:$PORT_A"
BASE_B="http://127.0.0.1:$PORT_B"
STAMP="$(date +%Y%m%d-%H%M%S)"
RUN_DIR="$BENCH_DIR/results/$STAMP-relay${LABEL:+-$LABEL}"
NODE_A_PID=""
NODE_B_PID=""
REDIS_PID=""
CLIENT_PID=""
TOP_PID=""

# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"

# ---------------------------------------------------------------------------------------------------------
# 0. Tools, ports
# ---------------------------------------------------------------------------------------------------------
need_tools curl jq psql ss redis-server redis-cli
for n in "$STREAMS" "$WARMUP" "$DURATION" "$ROUNDS" "$DRAIN"; do
  [[ "$n" =~ ^[0-9]+$ ]] || die "STREAMS, WARMUP, DURATION, ROUNDS and DRAIN are whole numbers, not '$n'"
done
[ "$STREAMS" -ge 1 ] || die "STREAMS must be at least 1"
# shellcheck disable=SC2119   # no count to check: only raised
raise_fd_limit
find_jdk 22
build_jar_if_missing

listening() { [ -n "$(ss -Htln "sport = :$1" 2>/dev/null)" ]; }
for p in "$PORT_A" "$PORT_B"; do
  listening "$p" && die "something already listens on port $p; choose another NODE_A_PORT / NODE_B_PORT"
done
[ "$PORT_A" != "$PORT_B" ] || die "NODE_A_PORT and NODE_B_PORT must differ"
REDIS_PORT="${REDIS_PORT:-18190}"
for _ in $(seq 1 50); do
  if ! listening "$REDIS_PORT" && [ "$REDIS_PORT" != "$PORT_A" ] && [ "$REDIS_PORT" != "$PORT_B" ]; then break; fi
  REDIS_PORT=$((REDIS_PORT + 1))
done
listening "$REDIS_PORT" && die "no free port for Redis near ${REDIS_PORT}"
check_database

mkdir -p "$RUN_DIR"
log "results in $RUN_DIR"

cleanup() {
  local status=$?
  set +e
  if [ -n "$TOP_PID" ]; then kill "$TOP_PID" 2>/dev/null; fi
  if [ -n "$CLIENT_PID" ]; then stop_pid "$CLIENT_PID"; fi
  for pid in "$NODE_B_PID" "$NODE_A_PID"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      log "stopping node pid $pid"
      stop_pid "$pid"
    fi
  done
  if [ -n "$REDIS_PID" ] && kill -0 "$REDIS_PID" 2>/dev/null; then
    log "stopping Redis (pid $REDIS_PID)"
    stop_pid "$REDIS_PID"
  fi
  drop_or_keep_database
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

{
  machine_facts shared_buffers max_connections synchronous_commit fsync
  echo "redis: $(redis-server --version)"
  echo "nodes: A $BASE_A, B $BASE_B; JAVA_OPTS $SERVICE_OPTS; ASSISTANT_OFFLINETOKENDELAY=$TOKEN_DELAY"
  echo "client opts: $CLIENT_OPTS, threads per side $CLIENT_THREADS"
  echo "STREAMS=$STREAMS WARMUP=$WARMUP DURATION=$DURATION ROUNDS=$ROUNDS DRAIN=$DRAIN CONTENT=$CONTENT"
  echo "other service variables passed through: $(env | grep -E '^(DATABASE_POOL|REALTIME_|ASSISTANT_|RATE_LIMIT_|LIMIT_)' | tr '\n' ' ')"
  echo "git status of the worktree:"; git -C "$ROOT" status --short | head -20
} > "$RUN_DIR/environment.txt"
load_line > "$RUN_DIR/load.txt"

# ---------------------------------------------------------------------------------------------------------
# 1. A database, a Redis, two nodes (one after the other: the first migrates the schema), a tenant
# ---------------------------------------------------------------------------------------------------------
recreate_database

mkdir -p "$RUN_DIR/redis"
log "starting Redis on 127.0.0.1:$REDIS_PORT"
start_redis "$REDIS_PORT" "$RUN_DIR/redis"
rcli() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" "$@"; }

ADMIN_TOKEN=$(random_token)

start_node() {   # $1 = name (a|b), $2 = port; the node's pid is then in $! (and in node-<name>.pid)
  local name=$1 port=$2
  # shellcheck disable=SC2086
  start_jar "$port" "$RUN_DIR/node-$name.log" \
    REDIS_URL="redis://127.0.0.1:$REDIS_PORT" \
    ASSISTANT_OFFLINETOKENDELAY="$TOKEN_DELAY" \
    RATE_LIMIT_WS_MESSAGES_PER_SECOND="${RATE_LIMIT_WS_MESSAGES_PER_SECOND:-100000}" \
    LIMIT_WS_CONNECTIONS_PER_TENANT="${LIMIT_WS_CONNECTIONS_PER_TENANT:-100000}" \
    $SERVICE_OPTS -Xlog:gc:file="$RUN_DIR/gc-node-$name.log":time,uptime,level,tags \
    -Xlog:safepoint:file="$RUN_DIR/safepoint-node-$name.log":time,uptime,level,tags
}

wait_node() {   # $1 = name, $2 = pid, $3 = base URL, $4 = seconds at most
  await_health "$4" "$3" "$2" "$RUN_DIR/node-$1.log" "node $1"
}

log "starting node A on $BASE_A ($SERVICE_OPTS, token delay $TOKEN_DELAY)"
START_NS=$(date +%s%N)
start_node a "$PORT_A"
NODE_A_PID=$!
wait_node a "$NODE_A_PID" "$BASE_A" 180
log "node A healthy after $(( ($(date +%s%N) - START_NS) / 1000000 )) ms; starting node B on $BASE_B"
START_NS=$(date +%s%N)
start_node b "$PORT_B"
NODE_B_PID=$!
wait_node b "$NODE_B_PID" "$BASE_B" 180
log "node B healthy after $(( ($(date +%s%N) - START_NS) / 1000000 )) ms"
# each node holds a dedicated connection for its event reader (and one for commands): both must be on this Redis
rcli client list > "$RUN_DIR/redis-clients.txt"
[ "$(grep -vc 'cmd=client|list' "$RUN_DIR/redis-clients.txt")" -ge 2 ] || die "the nodes are not connected to the Redis on port $REDIS_PORT"

create_tenant "relay bench tenant" "$BASE_A"
log "tenant $TENANT_ID"

# ---------------------------------------------------------------------------------------------------------
# 2. The run
# ---------------------------------------------------------------------------------------------------------
# "label pid" lines for the client to read CPU from /proc
write_procs "$RUN_DIR/procs.txt" node_a "$NODE_A_PID" node_b "$NODE_B_PID" redis "$REDIS_PID"

rcli info commandstats > "$RUN_DIR/redis-commandstats-before.txt"
rcli info stats > "$RUN_DIR/redis-stats-before.txt"
load_line >> "$RUN_DIR/load.txt"
MEASURE_DESC=$([ "$ROUNDS" -gt 0 ] && echo "$ROUNDS frames per chat" || echo "${DURATION}s")
log "$STREAMS streams (sockets on A and B), warm-up ${WARMUP}s, measure $MEASURE_DESC, content \"$CONTENT\""
top_snapshot during $((WARMUP + (ROUNDS > 0 ? 5 : DURATION / 2)))
TOP_PID=$!
# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" $CLIENT_OPTS -Xlog:gc:file="$RUN_DIR/gc-client.log":time,uptime,level,tags \
  -Xlog:safepoint:file="$RUN_DIR/safepoint-client.log":time,uptime,level,tags "$BENCH_DIR/RelayLoad.java" \
  base_a="$BASE_A" base_b="$BASE_B" key="$API_KEY" streams="$STREAMS" warmup="$WARMUP" duration="$DURATION" \
  rounds="$ROUNDS" max_measure="$MAX_MEASURE" drain="$DRAIN" content="$CONTENT" threads="$CLIENT_THREADS" \
  procs="$RUN_DIR/procs.txt" clk_tck="$CLK_TCK" chats="$RUN_DIR/chats.txt" \
  raw="$RUN_DIR/events.tsv.gz" out="$RUN_DIR/relay-result.txt" \
  limit=$((WARMUP + (ROUNDS > 0 ? MAX_MEASURE : DURATION) + DRAIN + 300)) \
  > "$RUN_DIR/relay-client.out" 2> "$RUN_DIR/relay-client.err" &
CLIENT_PID=$!
wait "$CLIENT_PID" || { tail -20 "$RUN_DIR/relay-client.err" >&2; CLIENT_PID=""; die "the relay client failed"; }
CLIENT_PID=""
wait "$TOP_PID" 2>/dev/null || true
TOP_PID=""
echo "after the run: $(load_line)" >> "$RUN_DIR/load.txt"
rcli info commandstats > "$RUN_DIR/redis-commandstats-after.txt"
rcli info stats > "$RUN_DIR/redis-stats-after.txt"
rcli info memory > "$RUN_DIR/redis-memory-after.txt"
grep '^problem' "$RUN_DIR/relay-client.err" | head -10 >&2 || true

declare -A R
read_results "$RUN_DIR/relay-result.txt"
# Redis commands over the whole run (warm-up included): a command's calls or usec between the two snapshots
redis_stat() {   # $1 = command, $2 = field (calls, usec)
  awk -F'[:=,]' -v c="cmdstat_$1" -v k="$2" '
    FNR == 1 {f++}
    $1 == c {for (i = 2; i < NF; i++) if ($i == k) v[f] = $(i + 1)}
    END {print v[2] - v[1]}' "$RUN_DIR/redis-commandstats-before.txt" "$RUN_DIR/redis-commandstats-after.txt"
}
XADD_CALLS=$(redis_stat xadd calls)
XREAD_CALLS=$(redis_stat xread calls)
redis_line() {
  local c
  for c in xadd pexpire xread; do
    printf '%s %s calls, %s us per call; ' "$c" "$(redis_stat $c calls)" \
      "$(awk -v u="$(redis_stat $c usec)" -v n="$(redis_stat $c calls)" 'BEGIN {if (n > 0) printf "%.1f", u / n; else printf "n/a"}')"
  done
}
# Stop-the-world time of a JVM from its safepoint log (any collector): within the measure, if given its wall-clock bounds
safepoint_line() {   # $1 = log, $2 = from, $3 = to (ISO, as the log's time decoration: 2026-01-01T10:00:00.000)
  awk -v from="$2" -v to="$3" '
    /Safepoint "/ {
      t = substr($1, 2, 23)
      if (from != "" && (t < from || t > to)) next
      ns = $0; sub(/.*Total: /, "", ns); sub(/ ns.*/, "", ns); ms = ns / 1e6
      n++; s += ms; if (ms > 10) big++; if (ms > m) {m = ms; what = $0; sub(/.*Safepoint "/, "", what); sub(/".*/, "", what)}
    }
    END {printf "%d safepoints, %.0f ms stopped in all, %d over 10 ms, longest %.1f ms (%s)", n, s, big, m, what}' "$1"
}
for name in a b; do
  warning_summary "$RUN_DIR/node-$name.log" "$RUN_DIR/node-$name-warnings.txt"
done

# ---------------------------------------------------------------------------------------------------------
# 3. Summary
# ---------------------------------------------------------------------------------------------------------
p=relay
# the measure's wall-clock bounds as the JVM logs write them (local time, milliseconds)
M_START_S=$(date -d "${R[${p}_measure_start_wall]}" +%s.%N)
M_FROM=$(date -d "@$M_START_S" +%Y-%m-%dT%H:%M:%S.%3N)
M_TO=$(date -d "@$(awk -v s="$M_START_S" -v d="${R[${p}_measure_s]}" 'BEGIN {printf "%.3f", s + d}')" +%Y-%m-%dT%H:%M:%S.%3N)
row() {   # $1 = label, $2 = key (signed), prints a table row
  echo "| $1 | $(part "$2" n) | $(part "$2" min) | $(part "$2" p1) | $(part "$2" p50) | $(part "$2" p90) | $(part "$2" p99) | $(part "$2" p999) | $(part "$2" max) |"
}
arow() {   # $1 = label, $2 = key (unsigned)
  echo "| $1 | $(part "$2" n) | | | $(part "$2" p50) | $(part "$2" p90) | $(part "$2" p99) | $(part "$2" p999) | $(part "$2" max) |"
}
{
  echo "# Token relay across two nodes, $(date -Is)"
  echo
  echo "$(head -1 "$RUN_DIR/load.txt") (before) | $(tail -1 "$RUN_DIR/load.txt") | $(nproc) cores"
  echo "nodes: $SERVICE_OPTS, ASSISTANT_OFFLINETOKENDELAY=$TOKEN_DELAY; client: $CLIENT_OPTS; git $(git -C "$ROOT" rev-parse --short HEAD)"
  echo
  echo "$STREAMS streams, content \"$CONTENT\", warm-up ${WARMUP}s, measured ${R[${p}_measure_s]} s ($MEASURE_DESC): ${R[${p}_frames_measured]} frames" \
    "(${R[${p}_frames_per_s]}/s), ${R[${p}_token_events_measured]} token events (${R[${p}_tokens_per_s]}/s)," \
    "${R[${p}_tokens_per_reply_avg]} tokens per reply (${R[${p}_tokens_per_reply_min_max]})"
  echo
  echo "| ms | n | min | p1 | p50 | p90 | p99 | p99.9 | max |"
  echo "|---|---|---|---|---|---|---|---|---|"
  row "token: arrival at B - arrival at A" "${p}_token_b_minus_a_ms"
  arow "token: abs(B - A)" "${p}_token_abs_b_minus_a_ms"
  row "every event: B - A" "${p}_event_b_minus_a_ms"
  row "message_stream_ended: B - A" "${p}_ended_b_minus_a_ms"
  arow "token: arrival at A - server timestamp (ms-floored: +0 to 1 ms)" "${p}_token_a_minus_server_ts_ms"
  arow "token: arrival at B - server timestamp (ms-floored: +0 to 1 ms)" "${p}_token_b_minus_server_ts_ms"
  arow "send -> message_received on A" "${p}_send_to_received_a_ms"
  arow "send -> message_stream_started on A" "${p}_send_to_started_a_ms"
  arow "send -> message_stream_ended on A" "${p}_send_to_ended_a_ms"
  arow "send -> message_stream_ended on B" "${p}_send_to_ended_b_ms"
  echo
  echo "tokens reaching B first: ${R[${p}_tokens_b_first]}; abs(B - A) <= 1 ms: ${R[${p}_tokens_abs_within_1ms]}," \
    "<= 10 ms: ${R[${p}_tokens_abs_within_10ms]}, > 100 ms: ${R[${p}_tokens_abs_over_100ms]}"
  echo
  echo "tokens with abs(B - A) > 10 ms by the client thread that read them (even chats: A on client 1, B on client 2;" \
    "odd chats the other way round; one side later on every chat = that node stalled, split by parity = a client" \
    "thread stalled): ${R[${p}_outliers_over_10ms]}"
  echo
  echo "| check (whole run, warm-up included) | A | B |"
  echo "|---|---|---|"
  echo "| events the other side got, missing on this one (must be 0) | ${R[${p}_missing_on_a]} | ${R[${p}_missing_on_b]} |"
  echo "| seqs skipped inside a reply, received .. ended (must be 0) | ${R[${p}_reply_holes_a]} | ${R[${p}_reply_holes_b]} |"
  echo "| seq out of order (must be 0) | ${R[${p}_out_of_order_a]} | ${R[${p}_out_of_order_b]} |"
  echo "| seq repeated (must be 0) | ${R[${p}_repeats_a]} | ${R[${p}_repeats_b]} |"
  echo
  echo "error events ${R[${p}_error_events]}, frames sent ${R[${p}_frames_sent_total]}, not ended ${R[${p}_frames_not_ended]}," \
    "chats not settled after the drain ${R[${p}_chats_not_settled_after_drain]}, sockets closed by a server ${R[${p}_sockets_closed_by_server]}," \
    "last_seq A != B ${R[${p}_last_seq_mismatch]}, events before the start ${R[${p}_before_start]}"
  echo
  echo "CPU s over the measure (of ${R[${p}_cpu_s_available]} available): node A ${R[${p}_cpu_s_node_a]:-?}, node B ${R[${p}_cpu_s_node_b]:-?}," \
    "Redis ${R[${p}_cpu_s_redis]:-?}, PostgreSQL ${R[${p}_cpu_s_postgres]:-?}, client ${R[${p}_cpu_s_client]}, other ${R[${p}_cpu_s_other]};" \
    "load average at the measure's start/end ${R[${p}_loadavg_start_end]}"
  echo "Redis over the whole run (warm-up included): $(redis_line)" \
    "$(awk -v a="$XADD_CALLS" -v b="$XREAD_CALLS" 'BEGIN {if (b > 0) printf "so a node reader got %.1f entries per XREAD call on average (2 readers read every entry)", 2 * a / b}')"
  echo "GC node A (whole run): $(gc_summary "$RUN_DIR/gc-node-a.log")"
  echo "GC node B (whole run): $(gc_summary "$RUN_DIR/gc-node-b.log")"
  echo "stopped during the measure: node A $(safepoint_line "$RUN_DIR/safepoint-node-a.log" "$M_FROM" "$M_TO");" \
    "node B $(safepoint_line "$RUN_DIR/safepoint-node-b.log" "$M_FROM" "$M_TO");" \
    "client $(safepoint_line "$RUN_DIR/safepoint-client.log" "$M_FROM" "$M_TO")"
  echo "WARN/ERROR lines: node A $(grep -cE ' (ERROR|WARN) ' "$RUN_DIR/node-a.log" || true), node B $(grep -cE ' (ERROR|WARN) ' "$RUN_DIR/node-b.log" || true)"
  echo "client problems logged: ${R[${p}_problems_logged]} (relay-client.err); the measure started at ${R[${p}_measure_start_wall]}" \
    "(events.tsv.gz: times in us from then; GC logs carry wall times)"
} | tee "$RUN_DIR/summary.md"
cat "$RUN_DIR/load.txt" >> "$RUN_DIR/summary.md"
log "raw outputs: $RUN_DIR"
