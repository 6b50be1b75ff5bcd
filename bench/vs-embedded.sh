#!/usr/bin/env bash
# The hot reads side by side with the bare reference server, the service on its embedded default: as the
# reference's own vs-service.sh does (it belongs to the benchmark workspace, not to this repository), but the service starts its own PostgreSQL (no DATABASE_URL, data
# under a temporary DATA_DIR) and is seeded there; the reference runs on the PostgreSQL server as always.
#
#   CEILING_DIR=<the reference server's directory> bench/vs-embedded.sh   # ~6 minutes; prints the table with ratios
#
# Env: JAVA_OPTS for the service, SERVICE_ENV (more VAR=value), anything the ceiling's bench.sh reads.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CEILING=${CEILING_DIR:?set CEILING_DIR to the directory of the bare reference server (its bench.sh and server)}
cd "$ROOT"
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
find_jdk
./mvnw -q -B -o -DskipTests package >/dev/null 2>&1 || ./mvnw -q -B -DskipTests package >/dev/null
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
work=$(mktemp -d -t vs-embedded.XXXX)
ADMIN_TOKEN=vs-$RANDOM$RANDOM
env -u DATABASE_URL SERVER_PORT=$port DATA_DIR=$work/data ADMIN_TOKEN=$ADMIN_TOKEN RATE_LIMIT_REST_PER_MINUTE=1000000000 \
  ${SERVICE_ENV:-} java ${JAVA_OPTS:-} -jar "$JAR" >"$work/service.log" 2>&1 &
pid=$!
cleanup() { rc=$?; set +e; stop_pid "$pid"; rm -rf "$work"; exit $rc; }
trap cleanup EXIT
await_health 120 "http://127.0.0.1:$port" "$pid" "$work/service.log" "the service"
pg_port=$(sed -n 's/.*Embedded PostgreSQL started on port \([0-9]*\).*/\1/p' "$work/service.log" | head -1)
[ -n "$pg_port" ] || { echo "the service did not start its embedded PostgreSQL"; tail -20 "$work/service.log"; exit 3; }
create_tenant "vs tenant" "http://127.0.0.1:$port"
tid=$TENANT_ID key=$API_KEY
psql -h 127.0.0.1 -p "$pg_port" -U postgres -X -q -v ON_ERROR_STOP=1 -d postgres -v tenant_id="$tid" \
  -v ids_file="$work/ids.txt" -f bench/seed.sql >"$work/seed.log" 2>&1 || { cat "$work/seed.log"; exit 3; }
psql -h 127.0.0.1 -p "$pg_port" -U postgres -X -q -d postgres -c "VACUUM (ANALYZE) chats" \
  -c "VACUUM (ANALYZE) messages" >/dev/null
big=$(head -1 "$work/ids.txt")
echo "service pid $pid on :$port, embedded PostgreSQL on :$pg_port, tenant $tid, big chat $big, commit $(git rev-parse --short HEAD)"
# the embedded PostgreSQL's processes are the service's children: bench.sh counts them under "postgres"
TARGET=http://127.0.0.1:$port TARGET_KEY=$key TARGET_IDS=$work/ids.txt TARGET_BIG=$big TARGET_PID=$pid \
  "$CEILING/bench.sh"
