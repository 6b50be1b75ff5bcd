# shellcheck shell=bash
# Sourced by the benchmark scripts: logging, the machine's facts, the JDK and the jar, a fresh database, starting the
# service (or a Redis) and waiting for it, stopping processes, CPU sampling from /proc, reading the clients' results.
# Expects ROOT to be set; the functions use, where they say so, JAVA_HOME, PGHOST, PGPORT, PGUSER, DB, BASE, RUN_DIR,
# ADMIN_TOKEN, SERVICE_PID, RUNS and an associative array R of results (declare -A R).

JAR="${JAR:-$ROOT/target/chat-review-service.jar}"
CLK_TCK=$(getconf CLK_TCK)
STOP_WAIT=30   # seconds stop_pid waits after TERM before KILL (a script may set more)

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
load_line() { echo "$(date -Is) loadavg: $(cut -d' ' -f1-3 /proc/loadavg)"; }

# ---------------------------------------------------------------------------------------------------------
# Before the run: tools, ports, the JDK, the jar, PostgreSQL
# ---------------------------------------------------------------------------------------------------------
# $@ = commands: stops the script, naming the package to install, unless every one is there
need_tools() {
  local tool pkg
  for tool in "$@"; do
    command -v "$tool" >/dev/null && continue
    case "$tool" in
      psql | pg_isready) pkg=postgresql-client ;;
      redis-*) pkg=redis-server ;;
      nginx) pkg=nginx-light ;;
      ss) pkg=iproute2 ;;
      *) pkg=$tool ;;
    esac
    die "$tool is needed (apt-get install -y $pkg)"
  done
}

# $1 = base URL, $2 = the setting that chooses its port: stops the script if something already answers there
check_port_free() {
  if curl -s -o /dev/null "$1/" 2>/dev/null; then
    die "something already answers on $1; choose another $2"
  fi
}

# Stops the script unless $DB is a plain lower-case name (it goes into SQL as is) and PostgreSQL answers on $PGHOST:$PGPORT
check_database() {
  case "$DB" in *[!a-z0-9_]*) die "BENCH_DB must be a plain lower-case name, not '$DB'" ;; esac
  pg_isready -q -h "$PGHOST" -p "$PGPORT" || die "no PostgreSQL on $PGHOST:$PGPORT"
}

# $1 = descriptors needed (optional), $2 = what needs them: raises the open-file limit (the service inherits it) to
# 65536, or to the hard limit; stops the script if that is still fewer than $1
raise_fd_limit() {
  ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
  [ -z "${1:-}" ] || [ "$(ulimit -n)" -ge "$1" ] || die "ulimit -n is $(ulimit -n); $2 need more"
}

# Points JAVA_HOME at a JDK 21 or newer (bin/find-java; stops the script when there is none); $1 = a newer one the
# script needs: 22 where it runs the load clients, which share bench/Kit.java through the multi-file source launcher
find_jdk() {
  # shellcheck source=bin/find-java
  . "$ROOT/bin/find-java"
  [ -z "${1:-}" ] || [ "$(java_major "$JAVA_HOME")" -ge "$1" ] \
    || die "this benchmark needs a JDK $1 or newer; JAVA_HOME=$JAVA_HOME is $(java_major "$JAVA_HOME")"
}

# $@ = Maven's arguments (default: -q -DskipTests -Dspotless.check.skip=true package): builds $JAR when it is not there
# yet, offline first, then online; stops the script if there is still no jar
build_jar_if_missing() {
  [ -f "$JAR" ] && return 0
  [ $# -gt 0 ] || set -- -q -DskipTests -Dspotless.check.skip=true package
  log "building $JAR (not there yet)"
  (cd "$ROOT" && { ./mvnw -o "$@" || ./mvnw "$@"; })
  [ -f "$JAR" ] || die "the build did not produce $JAR"
}

# The machine, the JDK, PostgreSQL (and the given settings of it) and the code measured.
machine_facts() {   # $@ = the pg_settings names to show
  local names
  names=$(printf "'%s'," "$@")
  echo "date: $(date -Is)"
  echo "host: $(hostname) | $(nproc) cores | $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "memory: $(free -m | awk '/Mem:/ {print $2 " MiB total, " $7 " MiB available"}')"
  echo "kernel: $(uname -r)"
  echo "java: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1) ($JAVA_HOME)"
  echo "postgres: $(psql -X -Atc 'SHOW server_version' -d postgres)"
  psql -X -At -d postgres -c "SELECT name || '=' || setting || coalesce(unit, '') FROM pg_settings
    WHERE name IN (${names%,})"
  echo "git: $(git -C "$ROOT" rev-parse --short HEAD) ($(git -C "$ROOT" rev-parse --abbrev-ref HEAD))"
  echo "uptime: $(uptime)"
  echo "busiest processes at start:"
  ps -eo pcpu,pmem,comm --sort=-pcpu | head -8
}

# ---------------------------------------------------------------------------------------------------------
# The bench database
# ---------------------------------------------------------------------------------------------------------
# $@ = psql's arguments: runs them on the bench database $DB, stopping at the first error
psql_db() { psql -X -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

# Drops the bench database $DB (if there), ending its connections
drop_database() {
  psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
}

# A new, empty bench database $DB (dropped first if there)
recreate_database() {
  log "recreating database $DB on $PGHOST:$PGPORT"
  drop_database
  psql -X -q -d postgres -c "CREATE DATABASE $DB" >/dev/null
}

# At the end of a run: drops the bench database $DB, unless KEEP_DB=1
drop_or_keep_database() {
  if [ "${KEEP_DB:-0}" = 1 ]; then
    log "keeping database $DB (KEEP_DB=1)"
  else
    log "dropping database $DB"
    drop_database
  fi
}

# ---------------------------------------------------------------------------------------------------------
# Processes: the service, a Redis, stopping them
# ---------------------------------------------------------------------------------------------------------
# A fresh admin token for the service of one run
random_token() { echo "bench-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"; }

# $1 = port, $2 = log file, then VAR=value settings of the service (they win over the ones below), then the JVM's
# options: starts the jar in the background on 127.0.0.1:$1 with the bench database $DB, $ADMIN_TOKEN and the REST
# rate limit out of the way; $! is then its pid (env execs java), also written beside the log (x.log -> x.pid)
start_jar() {
  local port=$1 out=$2 settings=()
  shift 2
  while [[ "${1:-}" =~ ^[A-Z_][A-Z0-9_]*= ]]; do settings+=("$1"); shift; done
  env SERVER_PORT="$port" SERVER_ADDRESS=127.0.0.1 DATABASE_URL="jdbc:postgresql://$PGHOST:$PGPORT/$DB" \
    DATABASE_USER="$PGUSER" ADMIN_TOKEN="$ADMIN_TOKEN" RATE_LIMIT_REST_PER_MINUTE=100000000 "${settings[@]}" \
    "$JAVA_HOME/bin/java" "$@" -jar "$JAR" > "$out" 2>&1 &
  echo "$!" > "${out%.log}.pid"
}

# $1 = seconds at most, $2 = base URL, $3 = pid, $4 = its log, $5 = what it is ("the service", "node a"): waits until
# $2/actuator/health answers UP; stops the script (with the log's end) if the process exits, or after $1 s
await_health() {
  local tries=$(( $1 * 20 ))
  for _ in $(seq 1 "$tries"); do
    kill -0 "$3" 2>/dev/null || { tail -40 "$4" >&2; die "$5 exited during start-up"; }
    if curl -s --max-time 1 "$2/actuator/health" 2>/dev/null | grep -q '"status":"UP"'; then
      return 0
    fi
    sleep 0.05
  done
  die "$5 was not healthy after $1 s (see $4)"
}

# Waits until the service ($SERVICE_PID on $BASE) answers /actuator/health UP; stops the script if it exits or takes too long.
wait_healthy() {   # $1 = seconds at most, $2 = its log (default $RUN_DIR/service.log)
  await_health "$1" "$BASE" "$SERVICE_PID" "${2:-$RUN_DIR/service.log}" "the service"
}

# $1 = pid: TERM, wait up to $STOP_WAIT s, then KILL; nothing if the process is not running
stop_pid() {
  local pid=$1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid"
  for _ in $(seq 1 $(( STOP_WAIT * 2 ))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
}

# Stops the service ($SERVICE_PID), if it runs
stop_service() {
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    log "stopping the service (pid $SERVICE_PID)"
    stop_pid "$SERVICE_PID"
  fi
}

# $1 = port, $2 = its working directory: starts a Redis of the run's own in the background (127.0.0.1 only, no
# persistence; $RUN_DIR/redis.log, redis.pid), sets REDIS_PID; stops the script if it does not answer PING in 10 s
start_redis() {
  local port=$1
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$2" > "$RUN_DIR/redis.log" 2>&1 &
  REDIS_PID=$!
  echo "$REDIS_PID" > "$RUN_DIR/redis.pid"
  for _ in $(seq 1 100); do
    kill -0 "$REDIS_PID" 2>/dev/null || { cat "$RUN_DIR/redis.log" >&2; die "redis-server exited"; }
    [ "$(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null)" = PONG ] && return 0
    sleep 0.1
  done
  die "Redis did not answer on port $port"
}

# $1 = Redis port, $2 = INFO section (memory, all...), $3 = field: prints its value (0 when absent)
redis_info() {
  redis-cli -p "$1" info "$2" | tr -d '\r' | awk -F: -v k="$3" '$1 == k {print $2; found=1} END {if (!found) print 0}'
}

# ---------------------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------------------
# $@ = pids: their user + system CPU in clock ticks (/proc/PID/stat fields 14 and 15), summed; 0 for a pid gone
cpu_ticks() {
  local total=0 pid t
  for pid in "$@"; do
    t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
    total=$((total + t))
  done
  echo "$total"
}

# The CPU ticks of the PostgreSQL server processes serving the bench database $DB (the service's pool)
postgres_cpu_ticks() {
  # shellcheck disable=SC2046
  cpu_ticks $(psql -X -At -d postgres -c "SELECT pid FROM pg_stat_activity WHERE datname = '$DB'")
}

# The clock ticks the whole machine has been busy (user, nice, system, irq, softirq, steal) since boot
machine_busy_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; }

# $1 = clock ticks, $2 = printf format (default %.2f): the CPU seconds
cpu_seconds() { awk -v t="$1" -v h="$CLK_TCK" -v f="${2:-%.2f}" 'BEGIN {printf f, t / h}'; }

# $1 = file, then "label pid" pairs: writes those lines for a load client to read CPU from /proc, then the PostgreSQL
# backends of the bench database (the pool) and the cluster's background processes (WAL writer, checkpointer, ...)
write_procs() {
  local out=$1
  shift
  {
    while [ $# -ge 2 ]; do echo "$1 $2"; shift 2; done
    psql -X -At -d postgres -c "SELECT 'postgres ' || pid FROM pg_stat_activity
      WHERE datname = '$DB' OR backend_type IN ('walwriter', 'checkpointer', 'background writer', 'autovacuum launcher')"
  } > "$out"
}

# $1 = name, $2 = seconds to wait first, $3 = lines (default 20): `top` of the machine into $RUN_DIR/top-$1.txt, in
# the background ($! is then its pid)
top_snapshot() {
  ( sleep "$2"; top -b -n 1 -w 200 | head -"${3:-20}" > "$RUN_DIR/top-$1.txt" ) &
}

# The service's metrics ($BASE/actuator/prometheus)
prom() { curl -s -H 'Accept: text/plain' "$BASE/actuator/prometheus"; }

# $1 = GC log (-Xlog:gc): the young pauses, their total, how many over 50 ms, the longest
gc_summary() {
  awk '/Pause Young/ {v = $NF; sub("ms", "", v); n++; s += v; if (v + 0 > 50) big++; if (v + 0 > m) m = v + 0}
    END {printf "%d young pauses, %.0f ms in all, %d over 50 ms, longest %.0f ms", n, s, big, m}' "$1"
}

# $1 = the service's log, $2 = file written: its ERROR and WARN lines, counted by text (time cut off), most frequent first
warning_summary() {
  grep -E ' (ERROR|WARN) ' "$1" | sed -E 's/^[^ ]+ +//' | cut -c1-300 | sort | uniq -c | sort -rn | head -20 > "$2" || true
}

# ---------------------------------------------------------------------------------------------------------
# Results and the summary
# ---------------------------------------------------------------------------------------------------------
# $1 = a part's name: whether RUNS lists it
wanted() { case " $RUNS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# $1 = file of key=value lines (a load client's results), $2 = prefix for the keys (optional): reads them into R
read_results() {
  local k v
  while IFS='=' read -r k v; do
    [ -n "$k" ] && R[${2:-}$k]="$v"
  done < <(grep -E '^[a-z_0-9]+=' "$1")
}

# $1 = result key, $2 = name: the name's value in R[$1], a list "name=value,..." (or "name:value,...")
part() { tr ',' '\n' <<<"${R[$1]:-}" | awk -F'[=:]' -v k="$2" '$1 == k {print $2}'; }

# $1 / $2 printed with the format $3 (default %.1f); n/a when $2 is not above 0
div() { awk -v a="$1" -v b="$2" -v f="${3:-%.1f}" 'BEGIN {if (b > 0) printf f, a / b; else printf "n/a"}'; }

# $@ = a command: "met" if it succeeds, else "MISSED"
verdict() { if "$@"; then echo met; else echo MISSED; fi; }
# $1 < $2 (numbers; false when $1 is empty)
lt() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a != "" && a < b)}'; }
# $1 >= $2 (numbers; false when $1 is empty)
ge() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a != "" && a >= b)}'; }

# $1 = name, $2 = base URL (default $BASE): creates a tenant through the admin API ($ADMIN_TOKEN); sets TENANT_JSON,
# TENANT_ID and API_KEY; stops the script if that fails
create_tenant() {
  TENANT_JSON=$(curl -sf -X POST "${2:-$BASE}/admin/v1/tenants" -H "X-Admin-Token: $ADMIN_TOKEN" \
    -H 'Content-Type: application/json' -d "{\"name\":\"$1\"}") || die "the admin API did not create the tenant"
  # shellcheck disable=SC2034   # TENANT_ID is for the caller
  TENANT_ID=$(jq -r .id <<<"$TENANT_JSON")
  API_KEY=$(jq -r .api_key <<<"$TENANT_JSON")
  [[ "$API_KEY" == crs_* ]] || die "no api_key in $TENANT_JSON"
}

# Starts nginx in the foreground with $RUN_DIR/nginx/site.conf (written by the caller) as its only site, its files
# under $RUN_DIR/nginx; sets NGINX_PID. WORKER_CONNECTIONS (1024) bounds what it carries.
run_nginx() {
  cat > "$RUN_DIR/nginx/nginx.conf" <<CONF
$( [ "$(id -u)" = 0 ] && echo "user root;" )
daemon off;
worker_processes 1;
worker_rlimit_nofile $(( ${WORKER_CONNECTIONS:-1024} * 2 + 100 ));
pid "$RUN_DIR/nginx/nginx.pid";
error_log "$RUN_DIR/nginx/error.log" notice;
events { worker_connections ${WORKER_CONNECTIONS:-1024}; }
http {
    access_log off;
    client_body_temp_path "$RUN_DIR/nginx/client_body";
    proxy_temp_path "$RUN_DIR/nginx/proxy";
    fastcgi_temp_path "$RUN_DIR/nginx/fastcgi";
    uwsgi_temp_path "$RUN_DIR/nginx/uwsgi";
    scgi_temp_path "$RUN_DIR/nginx/scgi";
    include "$RUN_DIR/nginx/site.conf";
}
CONF
  nginx -c "$RUN_DIR/nginx/nginx.conf" -p "$RUN_DIR/nginx/" > "$RUN_DIR/nginx/nginx.log" 2>&1 &
  NGINX_PID=$!
}

# $1 = port, $2.. = the nodes' ports: nginx in front of them with deploy/nginx's template (run_nginx); waits until it
# answers. Each stream holds two of its WORKER_CONNECTIONS.
start_nginx() {
  local port=$1 servers="" p
  shift
  for p in "$@"; do servers="$servers server 127.0.0.1:$p;"; done
  mkdir -p "$RUN_DIR/nginx"
  sed -e "s/\${LISTEN}/127.0.0.1:$port/" -e "s/\${UPSTREAM_SERVERS}/$servers/" -e "s/access_log \${ACCESS_LOG} chat_review;/access_log off;/" \
    "$ROOT/deploy/nginx/chat-review.conf.template" > "$RUN_DIR/nginx/site.conf"
  run_nginx
  for _ in $(seq 1 50); do curl -s "http://127.0.0.1:$port/actuator/health" >/dev/null && return 0; sleep 0.1; done
  die "nginx did not answer on port $port (see $RUN_DIR/nginx/error.log)"
}
