package com.chatreview.chatui;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The links the service writes come from CHAT_UI_URL or PUBLIC_URL, never from a request's Host header unless that
 * host is one of ALLOWED_HOSTS (docs/chat-ui.md): a request with {@code Host: evil.example} gets no link to it.
 */
@IntegrationTest
class LinksFromHostIntegrationTests {

    @Test
    void aHostNobodyListedNeverAppearsInALink(TestService service, TestTenant tenant) throws IOException {
        String chatId = tenant.chats()
                .post("/api/v1/chats", "{\"user_id\": \"student\"}")
                .json()
                .get("id")
                .asString();

        String evil = post(service.port(), "evil.example", tenant.apiKey(), "/api/v1/chats/" + chatId + "/embed-token");
        String listed = post(service.port(), "localhost", tenant.apiKey(), "/api/v1/chats/" + chatId + "/embed-token");

        assertThat(evil).contains("\"chat_ui_url\":\"/chat/?chat_id=" + chatId).doesNotContain("evil.example");
        assertThat(listed).contains("\"chat_ui_url\":\"http://localhost/chat/?chat_id=" + chatId);
    }

    /**
     * The LTI tool's URLs too: without PUBLIC_URL, a registration link asked with an unlisted Host is a path alone,
     * and a login (whose launch URL goes to the LMS as {@code redirect_uri}) is refused with a page saying what the
     * operator sets, never sent on with the Host's name in it.
     */
    @Test
    void aHostNobodyListedNeverAppearsInTheLtiToolsUrls(TestService service, TestTenant tenant) throws IOException {
        String link = post(service.port(), "evil.example", tenant.apiKey(), "/api/v1/lti/platforms/registration-links");
        String listed = post(service.port(), "localhost", tenant.apiKey(), "/api/v1/lti/platforms/registration-links");

        assertThat(link).contains("\"url\":\"/lti/register?link=").doesNotContain("evil.example");
        assertThat(listed).contains("\"url\":\"http://localhost/lti/register?link=");

        String login = get(
                service.port(),
                "evil.example",
                "/lti/login?iss=https%3A%2F%2Flms.example&login_hint=x&target_link_uri=http%3A%2F%2Fevil.example%2Flti%2Flaunch");
        assertThat(login).startsWith("HTTP/1.1 503").contains("PUBLIC_URL").doesNotContain("Location: http://evil");
    }

    private static String get(int port, String host, String path) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A raw HTTP/1.1 POST with the Host header a client chooses (Java's HTTP client will not send another). */
    private static String post(int port, String host, String apiKey, String path) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nX-API-Key: " + apiKey
                            + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
