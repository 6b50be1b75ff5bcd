package com.chatreview.web;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests Jetty refuses before any servlet sees them (an ambiguous path such as {@code ..%2F}, a path that is not
 * UTF-8, a malformed request line, oversized headers) get the same problem body as everything else, not Jetty's
 * HTML page. Their body is never read, so the answer says {@code Connection: close}: Jetty then ends the
 * connection gracefully after it. Without the header Jetty finds the body unread on a connection it meant to keep
 * and aborts it, and the client, still sending or sending its next request on it, sees a reset, not this answer.
 */
@Component
class ContainerErrors implements JettyServerCustomizer {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public void customize(Server server) {
        server.setErrorHandler(new ProblemErrorHandler());
    }

    static final class ProblemErrorHandler extends ErrorHandler {

        /**
         * Every method gets the problem body. Jetty's own choice is GET, POST and HEAD only: a PUT, PATCH or
         * DELETE it refused (a path that is not UTF-8, a bad {@code X-Forwarded-Host}) got an empty 400 with no
         * {@code X-Request-Id} and nothing to say what was wrong.
         */
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected void generateResponse(
                Request request, Response response, int code, String message, Throwable cause, Callback callback)
                throws IOException {
            String requestId = UUID.randomUUID().toString();
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.getHeaders().put(RequestIds.HEADER, requestId);
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            response.write(true, ByteBuffer.wrap(body(code, requestId)), callback);
        }

        @Override
        public ByteBuffer badMessageError(int code, String reason, HttpFields.Mutable fields) {
            String requestId = UUID.randomUUID().toString();
            fields.put(HttpHeader.CONTENT_TYPE, MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            fields.put(RequestIds.HEADER, requestId);
            return ByteBuffer.wrap(body(code, requestId));
        }

        private static byte[] body(int code, String requestId) {
            HttpStatus resolved = HttpStatus.resolve(code);
            HttpStatus status = resolved != null ? resolved : HttpStatus.BAD_REQUEST;
            String problemCode = ProblemRendering.codeOf(status);
            Map<String, Object> problem = new LinkedHashMap<>();
            problem.put("type", ProblemRendering.typeOf(problemCode).toString());
            problem.put("title", status.getReasonPhrase());
            problem.put("status", status.value());
            problem.put(
                    "detail",
                    status.is4xxClientError()
                            ? "The server could not accept the request line or headers: " + status.getReasonPhrase()
                            : "The service failed to handle the request");
            problem.put("code", problemCode);
            problem.put(
                    "fix",
                    status == HttpStatus.BAD_REQUEST
                            ? "Send a well-formed request; do not encode '/', '.' or control characters in the path."
                            : ProblemRendering.fixOf(status));
            problem.put("errors", List.of());
            problem.put("request_id", requestId);
            return JSON.writeValueAsString(problem).getBytes(StandardCharsets.UTF_8);
        }
    }
}
