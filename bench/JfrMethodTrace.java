import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a JFR recording of jdk.MethodTrace events (JDK 25) of ChatEvent.of, StreamsInProgress.token, Replies.publish
 * and Connection.deliver, made by bench/ws.sh during a token run, and prints "key=value" percentiles:
 *
 *   java bench/JfrMethodTrace.java recording.jfr
 *
 * JFR does not trace lambda bodies (synthetic methods), so the token callback of Replies.reply is timed from its
 * first call, ChatEvent.of("message_stream_token"), to the end of its last, Replies.publish (the frame written to
 * every connection of the chat), on the same thread: "callback". A pair counts as a token when
 * StreamsInProgress.token ran between the two (message_stream_started and _ended have no such call).
 */
public class JfrMethodTrace {
    record Call(String method, long start, long end) {}

    public static void main(String[] args) throws Exception {
        Map<Long, List<Call>> byThread = new HashMap<>();
        Map<String, List<Long>> durations = new TreeMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!event.getEventType().getName().equals("jdk.MethodTrace")) continue;
            String method = event.getValue("method.name");
            long start = event.getStartTime().getEpochSecond() * 1_000_000_000L + event.getStartTime().getNano();
            long duration = event.getDuration().toNanos();
            long thread = event.getThread() == null ? -1 : event.getThread().getJavaThreadId();
            byThread.computeIfAbsent(thread, k -> new ArrayList<>()).add(new Call(method, start, start + duration));
            durations.computeIfAbsent(method, k -> new ArrayList<>()).add(duration);
        }
        List<Long> callback = new ArrayList<>();
        for (List<Call> calls : byThread.values()) {
            calls.sort(Comparator.comparingLong(Call::start));
            long pending = -1;
            boolean token = false;
            for (Call call : calls) {
                switch (call.method()) {
                    case "of" -> {
                        pending = call.start();
                        token = false;
                    }
                    case "token" -> token = true;
                    case "publish" -> {
                        if (pending >= 0 && token) callback.add(call.end() - pending);
                        pending = -1;
                        token = false;
                    }
                    default -> { }
                }
            }
        }
        durations.put("callback", callback);
        for (var e : durations.entrySet()) {
            long[] s = e.getValue().stream().mapToLong(Long::longValue).toArray();
            if (s.length == 0) continue;
            Arrays.sort(s);
            int n = s.length;
            String p = "trace_" + e.getKey();
            System.out.println(p + "_calls=" + n);
            System.out.printf("%s_avg_ms=%.4f%n", p, Arrays.stream(s).average().orElse(0) / 1e6);
            for (double q : new double[] {50, 90, 99, 99.9}) {
                int i = Math.max(0, Math.min(n - 1, (int) Math.ceil(q / 100 * n) - 1));
                System.out.printf("%s_p%s_ms=%.4f%n", p, q == 99.9 ? "999" : String.valueOf((int) q), s[i] / 1e6);
            }
            System.out.printf("%s_max_ms=%.4f%n", p, s[n - 1] / 1e6);
            for (long ms : new long[] {1, 10, 100}) {
                long over = Arrays.stream(s).filter(d -> d > ms * 1_000_000).count();
                System.out.println(p + "_over_" + ms + "ms=" + over);
            }
        }
        if (callback.isEmpty()) System.out.println("trace_none=no token callback found in " + args[0]);
    }
}
