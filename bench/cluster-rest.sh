#!/usr/bin/env bash
# What Redis costs a REST request: get-chat read by wrk from (1) one node without Redis, (2) one node with Redis,
# (3) two nodes with Redis behind nginx (deploy/nginx/chat-review.conf.template), (4) one node without Redis again,
# one after another in one run, on
# one database and one Redis of the run's own. For each: requests per second, latency, the service's CPU per
# request (every node's JVM, from /proc), and for the Redis runs Redis's commands and CPU per request
# (INFO commandstats / INFO cpu deltas) and the round trips a request makes (commands sent by the node, a pipelined
# pair counting as one: docs/cluster.md).
#
#   bench/cluster-rest.sh
#   DURATION=5 WARMUP=5 LABEL=smoke bench/cluster-rest.sh     # a short check that it works
#
# Settings (environment, all optional):
#   DURATION=20 WARMUP=20   seconds of each measured wrk run, and of the warm-up before it
#   CONNECTIONS=64 THREADS=2
#   NODE_A_PORT=18185 NODE_B_PORT=18186 NGINX_PORT=18187 REDIS_PORT=18190   (127.0.0.1 only)
#   BENCH_DB=crs_bench_cluster  database created, then dropped, on the local PostgreSQL (127.0.0.1:5432, user postgres)
#   PGPORT=5432 PGUSER=postgres
#   JAVA_OPTS="-Xmx1g -XX:+UseZGC"   JVM options of each node
#   LABEL=name              added to the results directory name
#
# Raw outputs go to bench/results/<date>-cluster-rest<-label>/ (not committed); the summary is printed at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
export BENCH_DIR
cd "$ROOT"

PORT_A="${NODE_A_PORT:-18185}"
PORT_B="${NODE_B_PORT:-18186}"
NGINX_PORT="${NGINX_PORT:-18187}"
REDIS_PORT="${REDIS_PORT:-18190}"
DB="${BENCH_DB:-crs_bench_cluster}"
PGHOST=127.0.0.1
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
DURATION="${DURATION:-20}"
WARMUP="${WARMUP:-20}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
SERVICE_OPTS="${JAVA_OPTS:--Xmx1g -XX:+UseZGC}"
STAMP="$(date +%Y%m%d-%H%M%S)"
RUN_DIR="$BENCH_DIR/results/$STAMP-cluster-rest${LABEL:+-$LABEL}"
ADMIN_TOKEN="bench-admin-token"
NODE_A_PID=""
NODE_B_PID=""
REDIS_PID=""
NGINX_PID=""
BASE="http://127.0.0.1:$PORT_A"
SERVICE_PID=""

# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"

need_tools curl jq psql wrk redis-server redis-cli nginx
find_jdk
build_jar_if_missing -B -q -DskipTests -Djacoco.skip=true package
mkdir -p "$RUN_DIR"

cleanup() {
  stop_pid "$NGINX_PID"; stop_pid "$NODE_A_PID"; stop_pid "$NODE_B_PID"; stop_pid "$REDIS_PID"
  drop_database 2>/dev/null || true
}
trap cleanup EXIT

# A node of the jar: $1 = port, $2 = REDIS_URL ("" for none), $3 = log name. Prints its pid.
start_node() {
  local port=$1 redis_url=$2 name=$3
  # shellcheck disable=SC2086
  start_jar "$port" "$RUN_DIR/$name.log" REDIS_URL="$redis_url" TRUSTED_PROXIES=127.0.0.1 \
    RATE_LIMIT_REST_PER_MINUTE=1000000000 DATA_DIR="$RUN_DIR/data-$name" $SERVICE_OPTS
  echo $!
}

await_up() {   # $1 = port, $2 = pid, $3 = log name (as start_node's)
  await_health 120 "http://127.0.0.1:$1" "$2" "$RUN_DIR/$3.log" "the node on port $1"
}

switches() {   # $@ = pids: context switches (voluntary and not) of all their threads, summed
  local pid
  for pid in "$@"; do
    cat /proc/"$pid"/task/*/status 2>/dev/null | awk '/ctxt_switches/ {s += $2} END {print s}'
  done | awk '{s += $1} END {print s}'
}

redis_calls() {   # the commands a client sent (EVALSHA, EXISTS, ... : what the scripts run inside is not counted)
  redis-cli -p "$REDIS_PORT" info commandstats | tr -d '\r' | awk -F'[:=,]' '/^cmdstat_/ {
    name = substr($1, 9); calls[name] = $3 } END { for (n in calls) print n, calls[n] }' | sort
}

# One measured read: $1 = label, $2 = base URL, $3.. = pids of the service JVMs. Appends to summary.tsv.
measure() {
  local label=$1 url=$2; shift 2
  local pids=("$@") hz ticks0 ticks1 switches0 switches1 requests rps p50 p99 redis_cpu0 redis_cpu1 commands
  hz=$CLK_TCK
  log "$label: warm-up ${WARMUP}s"
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARMUP}s" -s "$BENCH_DIR/fixed.lua" "$url/api/v1/chats/$CHAT_ID" -- "$API_KEY" \
    > "$RUN_DIR/$label-warmup.txt" 2>&1
  load_line >> "$RUN_DIR/load.txt"
  ticks0=$(cpu_ticks "${pids[@]}")
  switches0=$(switches "${pids[@]}")
  if [ -n "$REDIS_PID" ]; then
    redis_calls > "$RUN_DIR/$label-redis-before.txt"
    redis_cpu0=$(redis_info "$REDIS_PORT" all used_cpu_user)+$(redis_info "$REDIS_PORT" all used_cpu_sys)
  fi
  log "$label: measuring ${DURATION}s"
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$BENCH_DIR/fixed.lua" \
    "$url/api/v1/chats/$CHAT_ID" -- "$API_KEY" > "$RUN_DIR/$label.txt" 2>&1
  ticks1=$(cpu_ticks "${pids[@]}")
  switches1=$(switches "${pids[@]}")
  requests=$(awk '/requests in/ {print $1}' "$RUN_DIR/$label.txt")
  rps=$(awk '/^Requests\/sec/ {printf "%.0f", $2}' "$RUN_DIR/$label.txt")
  p50=$(awk '$1 == "50%" {print $2}' "$RUN_DIR/$label.txt")
  p99=$(awk '$1 == "99%" {print $2}' "$RUN_DIR/$label.txt")
  local cpu_us=$(( (ticks1 - ticks0) * 1000000 / hz / requests ))
  local per_request="-" redis_us="-"
  if [ -n "$REDIS_PID" ]; then
    redis_calls > "$RUN_DIR/$label-redis-after.txt"
    redis_cpu1=$(redis_info "$REDIS_PORT" all used_cpu_user)+$(redis_info "$REDIS_PORT" all used_cpu_sys)
    per_request=$(join "$RUN_DIR/$label-redis-before.txt" "$RUN_DIR/$label-redis-after.txt" |
      awk -v n="$requests" '{d = $3 - $2; if (d > 0) printf "%s %.2f, ", $1, d / n}' | sed 's/, $//')
    redis_us=$(echo "(($redis_cpu1) - ($redis_cpu0)) * 1000000 / $requests" | bc -l | xargs printf '%.1f')
  fi
  local non2xx
  non2xx=$(awk '/Non-2xx/ {print $4}' "$RUN_DIR/$label.txt")
  local switches_per_request
  switches_per_request=$(echo "($switches1 - $switches0) / $requests" | bc -l | xargs printf '%.1f')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$rps" "$p50" "$p99" "$cpu_us" "$switches_per_request" \
    "$redis_us" "$per_request" "${non2xx:-0}" >> "$RUN_DIR/summary.tsv"
}

machine_facts shared_buffers max_connections > "$RUN_DIR/machine.txt"
recreate_database
printf 'run\treq/s\tp50\tp99\tservice CPU µs/request\tthread switches/request\tRedis CPU µs/request\tRedis commands per request (scripts'"'"' own included)\tnon-2xx\n' \
  > "$RUN_DIR/summary.tsv"

# Redis of the run's own
start_redis "$REDIS_PORT" "$RUN_DIR"

# The data: a tenant and one chat with a message, made through the first node
NODE_A_PID=$(start_node "$PORT_A" "" "a-alone")
SERVICE_PID=$NODE_A_PID
await_up "$PORT_A" "$NODE_A_PID" a-alone
create_tenant bench
CHAT_ID=$(curl -s -X POST -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' \
  -d '{"user_id": "student", "title": "A chat to read"}' "$BASE/api/v1/chats" | jq -r .id)
[ -n "$CHAT_ID" ] && [ "$CHAT_ID" != null ] || die "no chat was created"

# (1) one node, no Redis
REDIS_SAVED=$REDIS_PID; REDIS_PID=""
measure "1-node-no-redis" "$BASE" "$NODE_A_PID"
REDIS_PID=$REDIS_SAVED
stop_pid "$NODE_A_PID"

# (2) one node, Redis
NODE_A_PID=$(start_node "$PORT_A" "redis://127.0.0.1:$REDIS_PORT" "a-redis")
await_up "$PORT_A" "$NODE_A_PID" a-redis
measure "1-node-redis" "$BASE" "$NODE_A_PID"

# (3) two nodes, Redis, nginx
NODE_B_PID=$(start_node "$PORT_B" "redis://127.0.0.1:$REDIS_PORT" "b-redis")
await_up "$PORT_B" "$NODE_B_PID" b-redis
start_nginx "$NGINX_PORT" "$PORT_A" "$PORT_B"
measure "2-nodes-redis-nginx" "http://127.0.0.1:$NGINX_PORT" "$NODE_A_PID" "$NODE_B_PID"

# (4) one node without Redis again: the first run's figures were not an artefact of going first
stop_pid "$NGINX_PID"; NGINX_PID=""
stop_pid "$NODE_B_PID"; NODE_B_PID=""
stop_pid "$NODE_A_PID"
NODE_A_PID=$(start_node "$PORT_A" "" "a-alone-again")
await_up "$PORT_A" "$NODE_A_PID" a-alone-again
REDIS_SAVED=$REDIS_PID; REDIS_PID=""
measure "1-node-no-redis-again" "$BASE" "$NODE_A_PID"
REDIS_PID=$REDIS_SAVED

log "done: $RUN_DIR"
column -t -s $'\t' "$RUN_DIR/summary.tsv"
cat "$RUN_DIR/load.txt"
