#!/usr/bin/env bash
# How many students stream an AI reply at once, single node and two nodes behind nginx (docs/deployment.md, Sizing;
# docs/benchmarks.md, Streaming capacity).
#
#   bench/capacity.sh                                   # both layouts, levels 10,100,1000,2000 (about 15 minutes)
#   LAYOUTS=single LEVELS=10,100 DURATION=10 bench/capacity.sh      # a short check that it works
#
# The nodes run the jar with AI_PROVIDER=openai pointed at the provider stand-in in bench/StreamCapacity.java (30
# tokens/s per stream, each token stamped with its send time), on a database of their own; the cluster shares a Redis
# of the run's own and sits behind nginx with deploy/nginx's template. StreamCapacity prints one row per level; a
# level whose p99 added delay passes STOP_MS (50) or that lost a token is the last.
# LAYOUTS=floor runs the same client against bench/RelayFloor.java in the node's place: the barest relay this machine
# runs, the floor the node's CPU per token is stated against (run it beside the node: LAYOUTS="floor single").
# Env: LAYOUTS (single cluster; floor), LEVELS, PREWARM (30 s of 100 streams first, not reported), TOKENS (300 a reply), RATE (30/s), WARMUP (15 s), DURATION (30 s), STOP_MS,
# JAVA_OPTS (the nodes'; default -Xmx1g -XX:+UseZGC, as bin/run), CLIENT_OPTS, LABEL. Raw output: bench/results/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
cd "$ROOT"
DB="${BENCH_DB:-crs_bench_capacity}"
PGHOST=127.0.0.1 PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
LAYOUTS="${LAYOUTS:-single cluster}"
LEVELS="${LEVELS:-10,100,1000,2000}"
SERVICE_OPTS="${JAVA_OPTS:--Xmx1g -XX:+UseZGC}"
CLIENT_OPTS="${CLIENT_OPTS:--Xmx2g -XX:+UseZGC}"
PORT_A=18281 PORT_B=18282 NGINX_PORT=18280 STAND_IN_PORT=18290 REDIS_PORT=18279
STAMP="$(date +%Y%m%d-%H%M%S)"
RUN_DIR="$BENCH_DIR/results/$STAMP-capacity${LABEL:+-$LABEL}"
ADMIN_TOKEN=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
NODE_A_PID="" NODE_B_PID="" REDIS_PID="" NGINX_PID=""

# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"
need_tools curl jq psql redis-server redis-cli nginx
raise_fd_limit 20000 "the streams"
find_jdk 22
build_jar_if_missing
mkdir -p "$RUN_DIR"
trap 'stop_pid "$NGINX_PID"; stop_pid "$NODE_A_PID"; stop_pid "$NODE_B_PID"; stop_pid "$REDIS_PID"; drop_database 2>/dev/null || true' EXIT

start_node() {   # $1 = port, $2 = REDIS_URL ("" for none), $3 = name; prints its pid
  # shellcheck disable=SC2086
  start_jar "$1" "$RUN_DIR/$3.log" REDIS_URL="$2" TRUSTED_PROXIES=127.0.0.1 DATA_DIR="$RUN_DIR/data-$3" \
    AI_PROVIDER=openai AI_BASE_URL="http://127.0.0.1:$STAND_IN_PORT/v1" AI_MODEL=stand-in \
    RATE_LIMIT_WS_MESSAGES_PER_SECOND=100000 LIMIT_WS_CONNECTIONS_PER_TENANT=100000 $SERVICE_OPTS
  echo $!
}

start_floor() {   # the barest relay (bench/RelayFloor.java) where a node would be; prints its pid
  # shellcheck disable=SC2086
  "$JAVA_HOME/bin/java" $SERVICE_OPTS "$BENCH_DIR/RelayFloor.java" port="$1" \
    provider="http://127.0.0.1:$STAND_IN_PORT/v1/chat/completions" > "$RUN_DIR/$2.log" 2>&1 &
  echo $!
}

layout() {   # $1 = single | cluster | floor
  recreate_database
  local base pids nodes
  if [ "$1" = floor ]; then
    NODE_A_PID=$(start_floor "$PORT_A" "$1-a")
    await_health 60 "http://127.0.0.1:$PORT_A" "$NODE_A_PID" "$RUN_DIR/$1-a.log" "the floor relay"
    base="http://127.0.0.1:$PORT_A" pids="$NODE_A_PID" nodes="" API_KEY=floor
  elif [ "$1" = cluster ]; then
    NODE_A_PID=$(start_node "$PORT_A" "" "$1-a")
    start_redis "$REDIS_PORT" "$RUN_DIR"
    stop_pid "$NODE_A_PID"
    NODE_A_PID=$(start_node "$PORT_A" "redis://127.0.0.1:$REDIS_PORT" "$1-a")
    NODE_B_PID=$(start_node "$PORT_B" "redis://127.0.0.1:$REDIS_PORT" "$1-b")
    await_health 120 "http://127.0.0.1:$PORT_A" "$NODE_A_PID" "$RUN_DIR/$1-a.log" "node a"
    await_health 120 "http://127.0.0.1:$PORT_B" "$NODE_B_PID" "$RUN_DIR/$1-b.log" "node b"
    WORKER_CONNECTIONS=10000 start_nginx "$NGINX_PORT" "$PORT_A" "$PORT_B"
    base="http://127.0.0.1:$NGINX_PORT" pids="$NODE_A_PID,$NODE_B_PID"
    nodes="http://127.0.0.1:$PORT_A,http://127.0.0.1:$PORT_B"
  else
    NODE_A_PID=$(start_node "$PORT_A" "" "$1-a")
    await_health 120 "http://127.0.0.1:$PORT_A" "$NODE_A_PID" "$RUN_DIR/$1-a.log" "the node"
    base="http://127.0.0.1:$PORT_A" pids="$NODE_A_PID" nodes="$base"
  fi
  [ "$1" = floor ] || create_tenant "capacity $1" "$base"
  load_line | tee -a "$RUN_DIR/load.txt" >&2
  log "$1: levels $LEVELS"
  # shellcheck disable=SC2086
  "$JAVA_HOME/bin/java" $CLIENT_OPTS "$BENCH_DIR/StreamCapacity.java" stand-in="$STAND_IN_PORT" base="$base" \
    key="$API_KEY" levels="$LEVELS" pids="$pids" nodes="$nodes" tokens="${TOKENS:-300}" rate="${RATE:-30}" \
    prewarm="${PREWARM:-30}" warmup="${WARMUP:-15}" duration="${DURATION:-30}" stop_ms="${STOP_MS:-50}" \
    > "$RUN_DIR/$1.txt" 2> "$RUN_DIR/$1-client.err" || { tail -20 "$RUN_DIR/$1-client.err" >&2; die "the client failed"; }
  load_line | tee -a "$RUN_DIR/load.txt" >&2
  stop_pid "$NGINX_PID"; stop_pid "$NODE_A_PID"; stop_pid "$NODE_B_PID"; stop_pid "$REDIS_PID"
  NGINX_PID="" NODE_A_PID="" NODE_B_PID="" REDIS_PID=""
  echo "== $1 ($(git rev-parse --short HEAD), $(date -Is))"; column -t "$RUN_DIR/$1.txt"
  grep -m5 problem "$RUN_DIR/$1-client.err" || true
}

for l in $LAYOUTS; do layout "$l" | tee -a "$RUN_DIR/summary.txt"; done
log "raw output in $RUN_DIR"
