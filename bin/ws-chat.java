import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Asks one question over the WebSocket {@code /ws/chat} and prints the events as they come: what a client of the
 * real-time chat sees. Needs nothing but the JDK that runs the service (its source launcher):
 *
 * <pre>
 *   java bin/ws-chat.java BASE KEY USER_ID CHAT_ID "a question"
 *   java bin/ws-chat.java http://localhost:8080 crs_... student-1 0b6c... "What is a fraction?"
 * </pre>
 *
 * Every event is printed as the line of JSON the service sent, except the tokens of the streamed reply, which are
 * printed as they come, on one line. It ends after the reply ({@code message_stream_ended}) or an {@code error}.
 */
public class WsChat {

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: java bin/ws-chat.java BASE KEY USER_ID CHAT_ID \"a question\"");
            System.exit(2);
        }
        String base = args[0].replaceFirst("^http", "ws").replaceAll("/+$", "");
        URI uri = URI.create(base + "/ws/chat?api_key=" + encode(args[1]) + "&user_id=" + encode(args[2])
                + "&chat_id=" + encode(args[3]));
        String question = "{\"content\": \"" + args[4].replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        CompletableFuture<Void> finished = new CompletableFuture<>();
        WebSocket socket = HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .buildAsync(uri, new WebSocket.Listener() {
                    private final StringBuilder partial = new StringBuilder();
                    private boolean inTokens;

                    @Override
                    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                        partial.append(data);
                        if (last) {
                            show(ws, partial.toString());
                            partial.setLength(0);
                        }
                        ws.request(1);
                        return null;
                    }

                    private void show(WebSocket ws, String event) {
                        if (event.contains("\"event_type\":\"message_stream_token\"")) {
                            String token = event.replaceFirst(".*\"token\":\"((?:[^\"\\\\]|\\\\.)*)\".*", "$1");
                            System.out.print((inTokens ? "" : "  tokens: ")
                                    + token.replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\", "\\"));
                            inTokens = true;
                            return;
                        }
                        if (inTokens) {
                            System.out.println();
                            inTokens = false;
                        }
                        System.out.println(event);
                        if (event.contains("\"event_type\":\"connection_established\"")) {
                            ws.sendText(question, true);
                        } else if (event.contains("\"event_type\":\"message_stream_ended\"")
                                || event.contains("\"event_type\":\"error\"")) {
                            finished.complete(null);
                        }
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
                        System.out.println("closed: " + status + " " + reason);
                        finished.complete(null);
                        return null;
                    }

                    @Override
                    public void onError(WebSocket ws, Throwable error) {
                        finished.completeExceptionally(error);
                    }
                })
                .get(10, TimeUnit.SECONDS);
        finished.get(120, TimeUnit.SECONDS);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
