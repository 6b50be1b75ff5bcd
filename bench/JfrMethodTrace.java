import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a JFR recording of jdk.MethodTrace events (JDK 25) of ReplyStream.token (the token callback: the
 * event built, its seq taken, kept for resumes, the frame written to every connection of the chat),
 * EventSequence.next and Connection.deliver, made by bench/ws.sh during its trace run, and prints "key=value"
 * percentiles of each, the callback as "trace_callback":
 *
 *   java bench/JfrMethodTrace.java recording.jfr
 */
public class JfrMethodTrace {

    public static void main(String[] args) throws Exception {
        Map<String, List<Long>> durations = new TreeMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!event.getEventType().getName().equals("jdk.MethodTrace")) continue;
            String method = event.getValue("method.name");
            durations.computeIfAbsent(method.equals("token") ? "callback" : method, k -> new ArrayList<>())
                    .add(event.getDuration().toNanos());
        }
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
        if (!durations.containsKey("callback")) System.out.println("trace_none=no token callback found in " + args[0]);
    }
}
