# Sourced by the benchmark scripts: logging, the machine's facts, a fresh database, waiting for the service.
# Expects ROOT, JAVA_HOME, PGHOST, PGPORT, DB, BASE, RUN_DIR and SERVICE_PID (for wait_healthy) to be set.

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
load_line() { echo "$(date -Is) loadavg: $(cut -d' ' -f1-3 /proc/loadavg)"; }

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

recreate_database() {
  log "recreating database $DB on $PGHOST:$PGPORT"
  psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
  psql -X -q -d postgres -c "CREATE DATABASE $DB" >/dev/null
}

# Waits until the service answers /actuator/health UP; stops the script if it exits or takes too long.
wait_healthy() {   # $1 = seconds at most
  local tries=$(( $1 * 20 ))
  for _ in $(seq 1 "$tries"); do
    kill -0 "$SERVICE_PID" 2>/dev/null || { tail -40 "$RUN_DIR/service.log" >&2; die "the service exited during start-up"; }
    if curl -s --max-time 1 "$BASE/actuator/health" 2>/dev/null | grep -q '"status":"UP"'; then
      return 0
    fi
    sleep 0.05
  done
  die "the service was not healthy after $1 s (see $RUN_DIR/service.log)"
}
