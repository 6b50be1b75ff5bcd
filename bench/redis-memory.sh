#!/usr/bin/env bash
# Redis memory of a cluster per 1,000 live chats: one service node with REDIS_URL on a private Redis (no persistence),
# 1,000 chats each with one open WebSocket, then one frame answered on each (all at once, the offline assistant paced
# by TOKEN_DELAY so that the replies stream together). INFO memory and MEMORY USAGE of every crs:* key (grouped by
# kind) at each step; the 16 event streams' bytes per entry. The streams are trimmed by time (XADD ... MINID ~
# <now - 60 s>, RedisChatEventFanOut.STREAM_RETENTION): after the replies, the script waits WAIT_TRIM (65 s), sends one
# more frame on every chat (every shard gets XADDs) and checks that the streams then hold only that second round.
# Finally one stream is filled with copies of the measured entries to what a shard holds at RATES tokens/s
# (rate x 60 s / 16 entries). Results: bench/redis-memory-results.md.
#
#   bench/redis-memory.sh
#
# Settings (environment, all optional):
#   BENCH_PORT=18190          port of the service (127.0.0.1 only)
#   REDIS_PORT=16399          port of the private Redis started (and shut down) here; must be free
#   BENCH_DB=crs_bench_redis_mem  database created, then dropped, on the local PostgreSQL (127.0.0.1:5432, user postgres)
#   PGPORT=5432 PGUSER=postgres
#   CHATS=1000                chats, each with one WebSocket (and one frame)
#   TOKEN_DELAY=100ms         the offline provider's pause between tokens (100ms: a reply streams for ~6 s)
#   CONTENT="Relay?"          the frame content ("Relay?": 54 tokens at a chat's first reply)
#   WAIT_TRIM=65              seconds between the end of the first replies and the second round of frames
#   RATES="1000 5800"         cluster-wide token rates (events/s) a shard's 60 s of entries is simulated for
#   RETENTION=60              the service's stream retention in seconds (STREAM_RETENTION), for the simulation
#   JAVA_OPTS="-Xmx1g"        JVM options of the service
#
# Raw outputs go to bench/results/<date>-redis-memory/ (not committed); summary.md there.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"
cd "$ROOT"

PORT="${BENCH_PORT:-18190}"
REDIS_PORT="${REDIS_PORT:-16399}"
DB="${BENCH_DB:-crs_bench_redis_mem}"
PGHOST=127.0.0.1
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGPORT PGUSER
CHATS="${CHATS:-1000}"
TOKEN_DELAY="${TOKEN_DELAY:-100ms}"
CONTENT="${CONTENT:-Relay?}"
WAIT_TRIM="${WAIT_TRIM:-65}"
RATES="${RATES:-1000 5800}"
RETENTION="${RETENTION:-60}"
SERVICE_OPTS="${JAVA_OPTS:--Xmx1g} -Dassistant.offline-token-delay=$TOKEN_DELAY"
BASE="http://127.0.0.1:$PORT"
WS="ws://127.0.0.1:$PORT/ws/chat"
STAMP="$(date +%Y%m%d-%H%M%S)"
RUN_DIR="$BENCH_DIR/results/$STAMP-redis-memory"
SERVICE_PID=""
CLIENT_PID=""
REDIS_PID=""

# shellcheck source=bench/lib.sh
. "$BENCH_DIR/lib.sh"

# ---------------------------------------------------------------------------------------------------------
# 0. Tools, ports, the jar
# ---------------------------------------------------------------------------------------------------------
need_tools curl jq psql redis-server redis-cli
raise_fd_limit $((2 * CHATS + 1000)) "$CHATS connections"
find_jdk 22
if [ ! -f "$JAR" ]; then
  # a shared 2-core machine: never two Maven builds at once
  while pgrep -f org.codehaus.plexus.classworlds >/dev/null; do log "waiting for another Maven build to end"; sleep 10; done
fi
build_jar_if_missing -B -q -DskipTests -Djacoco.skip=true package
check_port_free "$BASE" BENCH_PORT
redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && die "something already answers on Redis port $REDIS_PORT; choose another REDIS_PORT"
check_database

mkdir -p "$RUN_DIR/control"
log "results in $RUN_DIR"
R() { redis-cli -p "$REDIS_PORT" "$@"; }

cleanup() {
  local status=$?
  set +e
  touch "$RUN_DIR/control/stop" 2>/dev/null
  if [ -n "$CLIENT_PID" ]; then stop_pid "$CLIENT_PID"; fi
  stop_service
  if [ -n "$REDIS_PID" ]; then
    log "stopping the private Redis (pid $REDIS_PID)"
    stop_pid "$REDIS_PID"
  fi
  log "dropping database $DB"
  drop_database
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------------------------------------------------
# The client: opens CHATS WebSockets (one per chat), holds them; when control/send appears sends one frame on each
# and reports when every reply has started (STARTED) and ended (ENDED); again on control/send2 (STARTED2, ENDED2);
# closes them all when control/stop appears.
# ---------------------------------------------------------------------------------------------------------
cat > "$RUN_DIR/MemClient.java" <<'EOF'
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class MemClient {
    static final Pattern TYPE = Pattern.compile("\"event_type\"\\s*:\\s*\"([a-z_]+)\"");
    static final AtomicInteger established = new AtomicInteger(), started = new AtomicInteger(),
            ended = new AtomicInteger(), errors = new AtomicInteger(), closed = new AtomicInteger();
    static final LongAdder tokens = new LongAdder();

    public static void main(String[] a) throws Exception {
        String ws = a[0], key = a[1];
        List<String> chats = Files.readAllLines(Path.of(a[2]));
        int n = Integer.parseInt(a[3]);
        String frame = "{\"content\":\"" + a[4] + "\"}";
        Path control = Path.of(a[5]);
        Thread.ofPlatform().daemon().start(() -> {   // a hard stop, whatever happens
            try { Thread.sleep(1800_000); } catch (InterruptedException e) { return; }
            System.out.println("HARD LIMIT"); Runtime.getRuntime().halt(3);
        });
        HttpClient http = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(4))
                .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        Semaphore inFlight = new Semaphore(100);
        List<WebSocket> sockets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String[] chat = chats.get(i).strip().split(" ");
            URI uri = URI.create(ws + "?api_key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)
                    + "&user_id=" + URLEncoder.encode(chat[1], StandardCharsets.UTF_8) + "&chat_id=" + chat[0]);
            inFlight.acquire();
            WebSocket.Listener listener = new WebSocket.Listener() {
                final StringBuilder text = new StringBuilder();
                public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                    text.append(data);
                    if (last) {
                        Matcher m = TYPE.matcher(text);
                        String type = m.find() ? m.group(1) : "";
                        switch (type) {
                            case "connection_established" -> { established.incrementAndGet(); inFlight.release(); }
                            case "message_stream_started" -> started.incrementAndGet();
                            case "message_stream_token" -> tokens.increment();
                            case "message_stream_ended" -> ended.incrementAndGet();
                            case "error" -> { if (errors.incrementAndGet() <= 5) System.err.println("error event: " + text); }
                            default -> { }
                        }
                        text.setLength(0);
                    }
                    w.request(1);
                    return null;
                }
                public CompletionStage<?> onClose(WebSocket w, int code, String reason) {
                    if (closed.incrementAndGet() <= 5) System.err.println("closed by the server: " + code + " " + reason);
                    return null;
                }
                public void onError(WebSocket w, Throwable e) { System.err.println("error: " + e); }
            };
            sockets.add(http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30)).buildAsync(uri, listener)
                    .get(60, TimeUnit.SECONDS));
        }
        long until = System.nanoTime() + 120_000_000_000L;
        while (established.get() < n && System.nanoTime() < until) Thread.sleep(100);
        System.out.println("READY established=" + established.get() + " closed=" + closed.get());
        // round 1 on control/send (STARTED, ENDED), round r > 1 on control/send<r> (STARTED<r>, ENDED<r>); counts cumulative
        for (int round = 1; ; round++) {
            String sfx = round == 1 ? "" : Integer.toString(round);
            while (!Files.exists(control.resolve("send" + sfx)) && !Files.exists(control.resolve("stop"))) Thread.sleep(100);
            if (Files.exists(control.resolve("stop"))) break;
            int target = round * n;
            long t0 = System.nanoTime();
            for (WebSocket w : sockets) w.sendText(frame, true);
            until = System.nanoTime() + 300_000_000_000L;
            while (started.get() < target && errors.get() == 0 && System.nanoTime() < until) Thread.sleep(20);
            System.out.printf("STARTED%s started=%d ended=%d tokens=%d errors=%d after_ms=%d%n", sfx, started.get(),
                    ended.get(), tokens.sum(), errors.get(), (System.nanoTime() - t0) / 1_000_000);
            while (ended.get() + errors.get() < target && System.nanoTime() < until) Thread.sleep(20);
            System.out.printf("ENDED%s started=%d ended=%d tokens=%d errors=%d closed=%d after_ms=%d%n", sfx,
                    started.get(), ended.get(), tokens.sum(), errors.get(), closed.get(), (System.nanoTime() - t0) / 1_000_000);
        }
        for (WebSocket w : sockets) w.sendClose(WebSocket.NORMAL_CLOSURE, "bench done");
        Thread.sleep(1000);
        System.exit(0);
    }
}
EOF

# ---------------------------------------------------------------------------------------------------------
# Measuring helpers
# ---------------------------------------------------------------------------------------------------------
declare -A MEM   # label.field -> value
memory() {   # $1 = label: INFO memory and the number of keys
  local label=$1 f
  R INFO memory | tr -d '\r' > "$RUN_DIR/info-memory-$label.txt"
  for f in used_memory used_memory_dataset used_memory_overhead mem_clients_normal used_memory_rss; do
    MEM[$label.$f]=$(awk -F: -v f="$f" '$1 == f {print $2}' "$RUN_DIR/info-memory-$label.txt")
  done
  MEM[$label.keys]=$(R DBSIZE)
  MEM[$label.load]=$(cut -d' ' -f1-3 /proc/loadavg)
  log "$label: used_memory ${MEM[$label.used_memory]} B (dataset ${MEM[$label.used_memory_dataset]}, clients ${MEM[$label.mem_clients_normal]}), ${MEM[$label.keys]} keys, load ${MEM[$label.load]}"
}

# MEMORY USAGE (SAMPLES 0: exact) of every key, grouped by kind (ids replaced by <id>): "kind keys bytes"
breakdown() {   # $1 = label
  local label=$1
  R --scan --pattern '*' > "$RUN_DIR/keys-$label.txt"
  awk '{print "MEMORY USAGE " $0 " SAMPLES 0"}' "$RUN_DIR/keys-$label.txt" | R > "$RUN_DIR/sizes-$label.txt"
  paste -d' ' "$RUN_DIR/keys-$label.txt" "$RUN_DIR/sizes-$label.txt" \
    | sed -E 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/<id>/g; s/^crs:events:\{[0-9]+\}/crs:events:{0..15}/' \
    | awk '{n[$1]++; b[$1] += $2} END {for (k in n) printf "%s %d %d\n", k, n[k], b[k]}' | sort -k3,3nr \
    > "$RUN_DIR/breakdown-$label.txt"
}
breakdown_table() {   # $1 = label
  echo "| key kind | keys | bytes (MEMORY USAGE) | bytes per key |"
  echo "|---|---:|---:|---:|"
  awk '{printf "| `%s` | %d | %d | %.0f |\n", $1, $2, $3, $3 / $2}' "$RUN_DIR/breakdown-$1.txt"
}

{
  machine_facts max_connections
  echo "redis: $(redis-server --version)"
  echo "service JAVA_OPTS: $SERVICE_OPTS"
  echo "other Maven builds running at start: $(pgrep -fc org.codehaus.plexus.classworlds || true)"
} > "$RUN_DIR/environment.txt"

# ---------------------------------------------------------------------------------------------------------
# 1. A private Redis, a fresh database, the service, a tenant, the chats
# ---------------------------------------------------------------------------------------------------------
start_redis "$REDIS_PORT" "$RUN_DIR"
memory empty

recreate_database
ADMIN_TOKEN=$(random_token)
log "starting the service on $BASE with REDIS_URL=redis://127.0.0.1:$REDIS_PORT and $SERVICE_OPTS"
# shellcheck disable=SC2086
start_jar "$PORT" "$RUN_DIR/service.log" REDIS_URL="redis://127.0.0.1:$REDIS_PORT" \
  RATE_LIMIT_WS_MESSAGES_PER_SECOND=100000 LIMIT_WS_CONNECTIONS_PER_TENANT=100000 $SERVICE_OPTS
SERVICE_PID=$!
wait_healthy 180
sleep 2
memory started   # (a) the service up, nothing done

create_tenant "redis memory bench tenant"
log "creating $CHATS chats"
"$JAVA_HOME/bin/java" "$BENCH_DIR/WsLoad.java" chats base="$BASE" key="$API_KEY" n="$CHATS" file="$RUN_DIR/chats.txt" \
  limit=300 > "$RUN_DIR/chats-result.txt" || die "creating the chats failed"
sleep 2
memory chats     # (a') a tenant and its chats in the database; no connection yet
breakdown chats

# ---------------------------------------------------------------------------------------------------------
# 2. (b) one open WebSocket per chat, idle
# ---------------------------------------------------------------------------------------------------------
log "opening $CHATS WebSockets"
"$JAVA_HOME/bin/java" -Xmx1g "$RUN_DIR/MemClient.java" "$WS" "$API_KEY" "$RUN_DIR/chats.txt" "$CHATS" "$CONTENT" \
  "$RUN_DIR/control" > "$RUN_DIR/client.out" 2> "$RUN_DIR/client.err" &
CLIENT_PID=$!
wait_line() {   # $1 = line prefix, $2 = seconds at most
  for _ in $(seq 1 $(( $2 * 10 ))); do
    grep -q "^$1" "$RUN_DIR/client.out" 2>/dev/null && return 0
    kill -0 "$CLIENT_PID" 2>/dev/null || break
    sleep 0.1
  done
  tail -20 "$RUN_DIR/client.err" >&2
  die "the client did not print $1"
}
wait_line READY 300
grep '^READY' "$RUN_DIR/client.out" >&2
sleep 5
memory idle
breakdown idle

# ---------------------------------------------------------------------------------------------------------
# 3. (e) one frame on every chat at once: replies in progress; (c) after they all ended
# ---------------------------------------------------------------------------------------------------------
declare -A PEAK PEAK_AT
redis_ms() { R TIME | tr -d '\r' | awk 'NR == 1 {s = $1} NR == 2 {printf "%d\n", s * 1000 + int($1 / 1000)}'; }
send_round() {   # $1 = control file (send, send2), $2 = client line suffix ("" or 2), $3 = label while streaming, $4 = label after
  local file=$1 sfx=$2 streaming=$3 answered=$4 T0
  log "sending one frame on each of the $CHATS chats ($file)"
  touch "$RUN_DIR/control/$file"
  PEAK[$streaming]=0
  PEAK_AT[$streaming]=""
  T0=$(date +%s%N)
  : > "$RUN_DIR/used-memory-while-$streaming.txt"
  sample() {
    local u t
    u=$(redis_info "$REDIS_PORT" memory used_memory)
    t=$(( ($(date +%s%N) - T0) / 1000000 ))
    echo "$t $u" >> "$RUN_DIR/used-memory-while-$streaming.txt"
    if [ "$u" -gt "${PEAK[$streaming]}" ]; then PEAK[$streaming]=$u; PEAK_AT[$streaming]=$t; fi
  }
  while ! grep -q "^STARTED$sfx " "$RUN_DIR/client.out"; do
    kill -0 "$CLIENT_PID" 2>/dev/null || die "the client exited (see $RUN_DIR/client.err)"
    sample; sleep 0.2
  done
  grep "^STARTED$sfx " "$RUN_DIR/client.out" >&2
  memory "$streaming"   # every reply started: owed replies, lanes held, reply lists growing
  breakdown "$streaming"
  while ! grep -q "^ENDED$sfx " "$RUN_DIR/client.out"; do
    kill -0 "$CLIENT_PID" 2>/dev/null || die "the client exited (see $RUN_DIR/client.err)"
    sample; sleep 0.2
  done
  grep "^ENDED$sfx " "$RUN_DIR/client.out" >&2
  log "peak used_memory while streaming: ${PEAK[$streaming]} B at ${PEAK_AT[$streaming]} ms after the frames were sent"
  sleep 5
  memory "$answered"
  breakdown "$answered"
}

# the 16 event streams: per shard "shard XLEN bytes entries-older-than-$2"
declare -A S_ENTRIES S_BYTES S_OLD
streams() {   # $1 = label, $2 = a stream id (ms): entries before it are counted as old (0: none)
  local label=$1 before=$2 s
  : > "$RUN_DIR/streams-$label.txt"
  for s in $(seq 0 15); do
    echo "$s $(R XLEN "crs:events:{$s}") $(R MEMORY USAGE "crs:events:{$s}" SAMPLES 0)" \
      "$(R EVAL "if ARGV[1] == '0' then return 0 end; return #redis.call('XRANGE', KEYS[1], '-', '(' .. ARGV[1])" 1 "crs:events:{$s}" "$before")" \
      >> "$RUN_DIR/streams-$label.txt"
  done
  read -r S_ENTRIES[$label] S_BYTES[$label] S_OLD[$label] < <(awk '{e += $2; b += $3; o += $4} END {print e, b, o}' "$RUN_DIR/streams-$label.txt")
  log "streams at $label: ${S_ENTRIES[$label]} entries, ${S_BYTES[$label]} B, ${S_OLD[$label]} older than $before"
}

send_round send "" streaming answered   # (e), then (c) every chat answered once, connections still open
ROUND1_END_MS=$(redis_ms)
streams answered 0
R XINFO STREAM 'crs:events:{0}' > "$RUN_DIR/xinfo-stream-0-answered.txt"
R CONFIG GET stream-node-max-* > "$RUN_DIR/stream-node-config.txt"

# ---------------------------------------------------------------------------------------------------------
# 4. Time-based trimming: nothing is trimmed without an XADD; WAIT_TRIM s later, one more frame on every chat (all
#    16 shards get XADDs with MINID ~ now - 60 s): the streams must hold only the second round's entries
# ---------------------------------------------------------------------------------------------------------
log "waiting $WAIT_TRIM s (the first round's entries older than the retention)"
sleep "$WAIT_TRIM"
memory waited
streams waited 0
ROUND2_MS=$(redis_ms)
send_round send2 2 streaming2 answered2
streams answered2 "$ROUND2_MS"
R XINFO STREAM 'crs:events:{0}' > "$RUN_DIR/xinfo-stream-0-answered2.txt"
R XRANGE 'crs:events:{0}' - + COUNT 3 > "$RUN_DIR/stream-sample-entries.txt"
R XRANGE 'crs:events:{0}' - "($ROUND2_MS" > "$RUN_DIR/stream-0-entries-older-than-round2.txt"

# ---------------------------------------------------------------------------------------------------------
# 5. Close the connections; stop the service; then what a shard holds at a given cluster-wide event rate: one
#    stream filled with RATE x RETENTION / 16 copies of the second round's entries of shard 0
# ---------------------------------------------------------------------------------------------------------
touch "$RUN_DIR/control/stop"
wait "$CLIENT_PID" 2>/dev/null || true
CLIENT_PID=""
sleep 3
memory closed
breakdown closed
stop_service
SERVICE_PID=""

: > "$RUN_DIR/fill.txt"
for rate in $RATES; do
  n=$(( rate * RETENTION / 16 ))
  before=$(redis_info "$REDIS_PORT" memory used_memory)
  got=$(R EVAL "
    local src = redis.call('XRANGE', KEYS[1], ARGV[2], '+')
    local n = tonumber(ARGV[1])
    for i = 1, n do
      local e = src[((i - 1) % #src) + 1]
      local args = {KEYS[2], '*'}
      for _, v in ipairs(e[2]) do table.insert(args, v) end
      redis.call('XADD', unpack(args))
    end
    return redis.call('XLEN', KEYS[2])" 2 'crs:events:{0}' "bench:fill:$rate" "$n" "$ROUND2_MS")
  bytes=$(R MEMORY USAGE "bench:fill:$rate" SAMPLES 0)
  after=$(redis_info "$REDIS_PORT" memory used_memory)
  echo "$rate $got $bytes $(( after - before ))" >> "$RUN_DIR/fill.txt"
  log "rate $rate/s: one shard $got entries, $bytes B (MEMORY USAGE), used_memory +$(( after - before )) B"
  R DEL "bench:fill:$rate" >/dev/null
done

# A reply in progress at its largest (just before it is stored): its list rebuilt from its stream entries as
# RedisStreamsInProgress writes it ("<seq> <event json>" for the started event and each token); second round only
REPLY_ENTRIES=$(R EVAL "
  local chat
  for _, e in ipairs(redis.call('XRANGE', KEYS[1], ARGV[1], '+')) do
    local f = {}
    for i = 1, #e[2], 2 do f[e[2][i]] = e[2][i + 1] end
    chat = chat or f.chat
    if f.chat == chat and (string.find(f.event, '\"message_stream_started\"', 1, true)
        or string.find(f.event, '\"message_stream_token\"', 1, true)) then
      redis.call('RPUSH', KEYS[2], f.seq .. ' ' .. f.event)
    end
  end
  return redis.call('LLEN', KEYS[2])" 2 'crs:events:{0}' bench:reply "$ROUND2_MS")
REPLY_BYTES=$(R MEMORY USAGE bench:reply SAMPLES 0)
log "a full reply list: $REPLY_ENTRIES entries, $REPLY_BYTES B"
# the mean length of the stream entries' event JSON, by event type
R EVAL "
  local n, b = {}, {}
  for _, e in ipairs(redis.call('XRANGE', KEYS[1], ARGV[1], '+')) do
    for i = 1, #e[2], 2 do
      if e[2][i] == 'event' then
        local t = string.match(e[2][i + 1], '\"event_type\":\"([a-z_]+)\"')
        n[t] = (n[t] or 0) + 1
        b[t] = (b[t] or 0) + #e[2][i + 1]
      end
    end
  end
  local out = {}
  for t, c in pairs(n) do table.insert(out, t .. ' ' .. c .. ' ' .. math.floor(b[t] / c)) end
  return out" 1 'crs:events:{0}' "$ROUND2_MS" > "$RUN_DIR/event-json-lengths.txt"

# ---------------------------------------------------------------------------------------------------------
# 6. Summary
# ---------------------------------------------------------------------------------------------------------
mb() { awk -v b="$1" 'BEGIN {printf "%.2f", b / 1048576}'; }
d() { echo $(( ${MEM[$1.used_memory]} - ${MEM[$2.used_memory]} )); }
per() { div "$1" "$2" %.0f; }   # $1 / $2, rounded
{
  echo "# Redis memory per $CHATS live chats, $(date -Is)"
  echo
  echo "$(nproc) cores, $(redis-server --version | cut -d' ' -f3), service $SERVICE_OPTS; git $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' + uncommitted src changes');"
  echo "other Maven builds at start / end: $(awk -F': ' '/^other Maven/ {print $2}' "$RUN_DIR/environment.txt") / $(pgrep -fc org.codehaus.plexus.classworlds || true)"
  echo "stream retention (MINID ~ now - ${RETENTION}s); second round $(( (ROUND2_MS - ROUND1_END_MS) / 1000 )) s after the first ended"
  echo
  echo "| step | used_memory B | MiB | delta vs previous B | per chat B | keys | mem_clients_normal B | load avg |"
  echo "|---|---:|---:|---:|---:|---:|---:|---|"
  prev=""
  for l in empty started chats idle streaming answered waited streaming2 answered2 closed; do
    delta=""; pc=""
    if [ -n "$prev" ]; then delta=$(d "$l" "$prev"); pc=$(per "$delta" "$CHATS"); fi
    echo "| $l | ${MEM[$l.used_memory]} | $(mb "${MEM[$l.used_memory]}") | $delta | $pc | ${MEM[$l.keys]} | ${MEM[$l.mem_clients_normal]} | ${MEM[$l.load]} |"
    prev=$l
  done
  echo
  for l in streaming streaming2; do
    echo "peak used_memory while the replies streamed ($l): ${PEAK[$l]} B ($(mb "${PEAK[$l]}") MiB) at ${PEAK_AT[$l]} ms"
  done
  echo
  echo "client: $(grep -E '^(READY|STARTED|ENDED)' "$RUN_DIR/client.out" | tr '\n' ';')"
  echo
  for l in idle streaming answered answered2 closed; do
    echo "## Keys at '$l'"
    echo
    breakdown_table "$l"
    echo
  done
  echo "## Event streams"
  echo
  echo "| when | entries | bytes (MEMORY USAGE) | B per entry | entries from before the second round |"
  echo "|---|---:|---:|---:|---:|"
  for l in answered waited answered2; do
    echo "| $l | ${S_ENTRIES[$l]} | ${S_BYTES[$l]} | $(per "${S_BYTES[$l]}" "${S_ENTRIES[$l]}") | ${S_OLD[$l]} |"
  done
  echo
  for l in answered answered2; do
    echo "per shard at $l (shard:XLEN/bytes/old): $(awk '{printf "%s:%s/%s/%s ", $1, $2, $3, $4}' "$RUN_DIR/streams-$l.txt")"
    echo
  done
  echo "## A shard's ${RETENTION} s of entries at a cluster-wide event rate (one stream filled with copies of shard 0's second-round entries)"
  echo
  echo "| events/s | entries per shard | MEMORY USAGE B | B/entry | used_memory delta B | B/entry | 16 shards MiB (MEMORY USAGE) | 16 shards MiB (used_memory) |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
  while read -r rate got bytes delta; do
    echo "| $rate | $got | $bytes | $(per "$bytes" "$got") | $delta | $(per "$delta" "$got") | $(mb $((16 * bytes))) | $(mb $((16 * delta))) |"
  done < "$RUN_DIR/fill.txt"
  echo
  echo "event JSON in shard 0, second round (type, entries, mean bytes): $(tr '\n' ';' < "$RUN_DIR/event-json-lengths.txt")"
  echo
  echo "a reply in progress at its largest: list of $REPLY_ENTRIES entries, $REPLY_BYTES B (MEMORY USAGE)"
} | tee "$RUN_DIR/summary.md"
log "raw outputs: $RUN_DIR"
