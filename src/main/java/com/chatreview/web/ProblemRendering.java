package com.chatreview.web;

import com.chatreview.database.DatabaseReachability;
import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.PayloadTooLarge;
import com.chatreview.kernel.RetryLater;
import com.chatreview.kernel.ServiceError;
import com.chatreview.kernel.ServiceUnavailable;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.Part;
import java.net.URI;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.ConversionNotSupportedException;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentConversionNotSupportedException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.multipart.support.MissingServletRequestPartException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.databind.DatabindException;

/**
 * The one place where failures become responses: an RFC 9457 problem body with {@code code}, {@code fix},
 * {@code errors} and {@code request_id} (docs/api.md, Conventions). Nothing else in the service writes an error body.
 */
@RestControllerAdvice
class ProblemRendering extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemRendering.class);

    @ExceptionHandler(ServiceError.class)
    ResponseEntity<Object> serviceError(ServiceError error, WebRequest request) {
        return render(
                ProblemStatus.of(error.code()),
                error.code().name(),
                Objects.requireNonNull(error.getMessage(), "a ServiceError is made with its detail"),
                error.fix(),
                error.errors(),
                headersOf(error),
                request);
    }

    /**
     * The headers a failure's facts become: {@code Retry-After} in whole seconds (at least one) for one that
     * passes; {@code Connection: close} for a body too large, whose rest is never read.
     */
    private static HttpHeaders headersOf(ServiceError error) {
        if (error instanceof RetryLater later) {
            HttpHeaders headers = new HttpHeaders();
            long millis = later.retryAfter().toMillis();
            headers.set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, (millis + 999) / 1000)));
            return headers;
        }
        if (error.code() == ServiceError.Code.PAYLOAD_TOO_LARGE) {
            return closing();
        }
        return HttpHeaders.EMPTY;
    }

    /**
     * The rest of the body is never read, so the connection cannot carry another request: saying so keeps a client
     * from sending its next request down a connection the server is about to close.
     */
    private static HttpHeaders closing() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.CONNECTION, "close");
        return headers;
    }

    @Override
    protected ResponseEntity<Object> handleMaxUploadSizeExceededException(
            MaxUploadSizeExceededException error, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return uploadTooLarge(request);
    }

    private ResponseEntity<Object> uploadTooLarge(WebRequest request) {
        return render(
                HttpStatus.CONTENT_TOO_LARGE,
                "PAYLOAD_TOO_LARGE",
                "The upload is too large: one file may be at most 10 MiB and the whole request at most 50 MiB",
                "Send smaller files, or fewer files in one request.",
                List.of(),
                closing(),
                request);
    }

    /**
     * A body the multipart parser gave up on leaves the connection in no state to carry another request, and the
     * container closes it after this answer: {@code Connection: close} says so, so that a client does not send its
     * next request on a connection that is about to go away.
     */
    @ExceptionHandler(MultipartException.class)
    ResponseEntity<Object> malformedMultipart(MultipartException error, WebRequest request) {
        if (tooLarge(error)) {
            return uploadTooLarge(request);
        }
        return render(
                HttpStatus.BAD_REQUEST,
                "VALIDATION_ERROR",
                "The request is not a readable multipart/form-data body",
                "Send Content-Type multipart/form-data with a boundary, a studentId field and 1 to 10 files parts.",
                List.of(),
                closing(),
                request);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception error, WebRequest request) {
        if (tooLarge(error)) {
            return uploadTooLarge(request);
        }
        org.eclipse.jetty.http.HttpException refused = containerRefusal(error);
        if (refused != null) {
            return undecodable(refused, request);
        }
        if (unstorableCharacter(error)) {
            // PostgreSQL's text and jsonb refuse U+0000; the transaction rolled back, nothing was stored
            return render(
                    HttpStatus.BAD_REQUEST,
                    "VALIDATION_ERROR",
                    "The request holds a NUL character (U+0000), which the service cannot store",
                    "Remove U+0000 characters from the request's text and send it again.",
                    List.of(),
                    HttpHeaders.EMPTY,
                    request);
        }
        if (DatabaseReachability.isOutage(error)) {
            // docs/api.md, Conventions: a dependency down is not the request's fault, nor a failure of the service's
            // own
            log.warn("A request could not get the database: {}", error.toString());
            return serviceError(databaseUnavailable(error), request);
        }
        log.error("Unexpected failure", error);
        return render(
                HttpStatus.INTERNAL_SERVER_ERROR,
                "INTERNAL_ERROR",
                "The service failed to handle the request",
                "Try again; if it keeps failing, report the request_id to the operator.",
                List.of(),
                HttpHeaders.EMPTY,
                request);
    }

    private static ServiceUnavailable databaseUnavailable(Throwable error) {
        return new ServiceUnavailable(
                DatabaseReachability.whyUnavailable(error),
                "Send the request again after Retry-After seconds (with the same Idempotency-Key where it has one).",
                DatabaseReachability.RETRY_AFTER);
    }

    /**
     * What the container refused while the handler read it: Jetty decodes query parameters (and form fields) only
     * when they are first asked for, strictly (UriCompliance DEFAULT: no bad percent-encoding, no invalid or
     * overlong UTF-8, no encoded surrogates), and throws an {@code HttpException} carrying 400 from inside
     * {@code getParameter}: from argument binding, well inside Spring MVC. Its status is the answer.
     */
    private ResponseEntity<Object> undecodable(org.eclipse.jetty.http.HttpException refused, WebRequest request) {
        HttpStatus status = HttpStatus.valueOf(refused.getCode());
        if (status != HttpStatus.BAD_REQUEST) {
            return render(
                    status,
                    codeOf(status),
                    status.getReasonPhrase(),
                    fixOf(status),
                    List.of(),
                    HttpHeaders.EMPTY,
                    request);
        }
        String fix = "Percent-encode every query parameter and form field as UTF-8: '%' followed by two hex digits"
                + " for each byte, nothing else after a '%'.";
        List<String> names = QueryStrings.undecodable(
                ((ServletWebRequest) request).getRequest().getQueryString());
        if (names.isEmpty()) {
            return render(
                    status,
                    "VALIDATION_ERROR",
                    "The request's parameters could not be decoded",
                    fix,
                    List.of(),
                    HttpHeaders.EMPTY,
                    request);
        }
        List<FieldProblem> problems = names.stream()
                .map(name -> new FieldProblem(name, "is not valid percent-encoded UTF-8"))
                .toList();
        return render(
                status,
                "VALIDATION_ERROR",
                problems.stream()
                        .map(problem -> problem.field() + ": " + problem.message())
                        .reduce((a, b) -> a + "; " + b)
                        .orElseThrow(),
                fix,
                problems,
                HttpHeaders.EMPTY,
                request);
    }

    /**
     * A request argument that the request gave in a form no conversion turns into the declared type: a multipart
     * field sent as a file part ({@code studentId} with a filename), which Spring's {@code @RequestParam} resolution
     * hands over as a {@link MultipartFile}. Spring answers it 500; it is the request's fault, so 400.
     */
    @Override
    protected ResponseEntity<Object> handleConversionNotSupported(
            ConversionNotSupportedException error, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (!(error instanceof MethodArgumentConversionNotSupportedException argument)) {
            // handleExceptionInternal, overridden here, always renders a problem
            return Objects.requireNonNull(super.handleConversionNotSupported(error, headers, status, request));
        }
        String field = argument.getName();
        boolean file = argument.getValue() instanceof MultipartFile
                || argument.getValue() instanceof Part
                || argument.getValue() instanceof List<?> parts
                        && !parts.isEmpty()
                        && (parts.getFirst() instanceof MultipartFile || parts.getFirst() instanceof Part);
        String message = file ? "must be a form field, not a file (a part without a filename)" : "has the wrong type";
        return render(
                HttpStatus.BAD_REQUEST,
                "VALIDATION_ERROR",
                field + " " + message,
                "Send " + field + " as the interface gives it" + (file ? ": a plain form field." : "."),
                List.of(new FieldProblem(field, message)),
                HttpHeaders.EMPTY,
                request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException error, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        PayloadTooLarge tooLarge = causeOfType(error, PayloadTooLarge.class);
        if (tooLarge != null) {
            return serviceError(tooLarge, request);
        }
        DatabindException binding = causeOfType(error, DatabindException.class);
        if (binding != null && !binding.getPath().isEmpty()) {
            String field = binding.getPathReference()
                    .replaceAll("^[^\\[]*\\[\"?", "")
                    .replaceAll("\"?\\]$", "")
                    .replace("\"][\"", ".");
            String message = wrongTypeMessage(binding);
            return render(
                    HttpStatus.BAD_REQUEST,
                    "VALIDATION_ERROR",
                    field + ": " + message,
                    "Send each field with the type the interface gives it.",
                    List.of(new FieldProblem(field, message)),
                    HttpHeaders.EMPTY,
                    request);
        }
        boolean missing =
                error.getMessage() != null && error.getMessage().startsWith("Required request body is missing");
        return render(
                HttpStatus.BAD_REQUEST,
                "VALIDATION_ERROR",
                missing
                        ? "The request body is missing"
                        : binding != null
                                ? "The request body must be a JSON object"
                                : "The request body is not valid JSON",
                "Send a JSON object with Content-Type: application/json.",
                List.of(),
                HttpHeaders.EMPTY,
                request);
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(
            TypeMismatchException error, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (error instanceof MethodArgumentTypeMismatchException mismatch
                && mismatch.getParameter()
                        .hasParameterAnnotation(org.springframework.web.bind.annotation.PathVariable.class)) {
            // docs/api.md, Conventions: a path id that is not a UUID names nothing, so it is "not found"
            return render(
                    HttpStatus.NOT_FOUND,
                    "NOT_FOUND",
                    "No " + mismatch.getName().replace("_id", "").replace("Id", "") + " with id '" + mismatch.getValue()
                            + "'",
                    "Use the id the service returned when the resource was created.",
                    List.of(),
                    HttpHeaders.EMPTY,
                    request);
        }
        String field = error.getPropertyName() != null ? error.getPropertyName() : "parameter";
        String message = "has the wrong type: '" + error.getValue() + "'";
        return render(
                HttpStatus.BAD_REQUEST,
                "VALIDATION_ERROR",
                field + " " + message,
                "Check the type of " + field + " in the interface.",
                List.of(new FieldProblem(field, message)),
                HttpHeaders.EMPTY,
                request);
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(
            MissingServletRequestParameterException error,
            HttpHeaders headers,
            HttpStatusCode status,
            WebRequest request) {
        return render(
                HttpStatus.BAD_REQUEST,
                "VALIDATION_ERROR",
                error.getParameterName() + " is required",
                "Add the query parameter " + error.getParameterName() + ".",
                List.of(new FieldProblem(error.getParameterName(), "is required")),
                HttpHeaders.EMPTY,
                request);
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestPart(
            MissingServletRequestPartException error, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return render(
                HttpStatus.BAD_REQUEST,
                "VALIDATION_ERROR",
                error.getRequestPartName() + " is required",
                "Add the form part " + error.getRequestPartName() + ".",
                List.of(new FieldProblem(error.getRequestPartName(), "is required")),
                HttpHeaders.EMPTY,
                request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(
            HttpMediaTypeNotSupportedException error, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        // The interface answers an unreadable body with 400, whatever made it unreadable.
        String expected = error.getSupportedMediaTypes().isEmpty()
                ? "application/json"
                : error.getSupportedMediaTypes().getFirst().toString();
        return render(
                HttpStatus.BAD_REQUEST,
                "VALIDATION_ERROR",
                "Content-Type " + (error.getContentType() == null ? "(none)" : error.getContentType())
                        + " is not accepted here",
                "Send the body as " + expected + ".",
                List.of(new FieldProblem("Content-Type", "must be " + expected)),
                HttpHeaders.EMPTY,
                request);
    }

    /** Every other exception Spring MVC knows (405, 406, 404 of an unknown path...). */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception error, @Nullable Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        HttpStatus resolved = HttpStatus.resolve(status.value());
        HttpStatus effective = resolved != null ? resolved : HttpStatus.INTERNAL_SERVER_ERROR;
        String detail = body instanceof ProblemDetail problem && problem.getDetail() != null
                ? problem.getDetail()
                : effective.getReasonPhrase();
        return render(effective, codeOf(effective), detail, fixOf(effective), List.of(), headers, request);
    }

    ResponseEntity<Object> render(
            HttpStatus status,
            String code,
            String detail,
            String fix,
            List<FieldProblem> errors,
            HttpHeaders headers,
            WebRequest request) {
        HttpServletRequest servletRequest = ((ServletWebRequest) request).getRequest();
        // a refusal may come before the body was read: read it first, so the client sees this answer (UnreadBodies)
        UnreadBodies.drain(servletRequest);
        // the problem's own type, whatever the request's Accept: negotiating it against "Accept: bogus" or
        // "application/xml" found no writer, and the answer went out as an empty 406
        return ResponseEntity.status(status)
                .headers(headers)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(Problems.body(status, code, detail, fix, errors, servletRequest));
    }

    static String codeOf(HttpStatus status) {
        return switch (status) {
            case BAD_REQUEST -> "VALIDATION_ERROR";
            case UNAUTHORIZED -> "UNAUTHORIZED";
            case FORBIDDEN -> "FORBIDDEN";
            case NOT_FOUND -> "NOT_FOUND";
            case CONFLICT -> "CONFLICT";
            case CONTENT_TOO_LARGE -> "PAYLOAD_TOO_LARGE";
            case TOO_MANY_REQUESTS -> "RATE_LIMITED";
            case INTERNAL_SERVER_ERROR -> "INTERNAL_ERROR";
            default -> status.name();
        };
    }

    static String fixOf(HttpStatus status) {
        return switch (status) {
            case NOT_FOUND -> "Check the path against the API reference at /v3/api-docs.";
            case METHOD_NOT_ALLOWED -> "Use one of the methods in the Allow header.";
            case NOT_ACCEPTABLE -> "Accept application/json.";
            case INTERNAL_SERVER_ERROR -> "Try again; if it keeps failing, report the request_id to the operator.";
            default -> "Check the request against the API reference at /v3/api-docs.";
        };
    }

    private static String wrongTypeMessage(DatabindException binding) {
        String original = binding.getOriginalMessage();
        if (original == null) {
            return "has the wrong type";
        }
        String lower = original.toLowerCase(Locale.ROOT);
        if (lower.contains("map") || lower.contains("start_object") || lower.contains("object")) {
            return "must be a JSON object";
        }
        if (lower.contains("string")) {
            return "must be a string";
        }
        return "has the wrong type";
    }

    private static boolean tooLarge(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            String name = cause.getClass().getSimpleName();
            String message =
                    cause.getMessage() == null ? "" : cause.getMessage().toLowerCase(Locale.ROOT);
            if (cause instanceof MaxUploadSizeExceededException
                    || name.contains("TooLarge")
                    || (message.contains("exceed") && (message.contains("size") || message.contains("max")))) {
                return true;
            }
        }
        return false;
    }

    /** Jetty's refusal of what the handler asked it to decode, when it carries a 4xx status. */
    private static org.eclipse.jetty.http.@Nullable HttpException containerRefusal(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof org.eclipse.jetty.http.HttpException refused
                    && refused.getCode() >= 400
                    && refused.getCode() < 500
                    && HttpStatus.resolve(refused.getCode()) != null) {
                return refused;
            }
        }
        return null;
    }

    /** PostgreSQL's "invalid byte sequence" (22021) and "unsupported Unicode escape" in jsonb (22P05). */
    private static boolean unstorableCharacter(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql
                    && ("22021".equals(sql.getSQLState()) || "22P05".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    private static <T extends Throwable> @Nullable T causeOfType(Throwable error, Class<T> type) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }

    static URI typeOf(String code) {
        return URI.create(
                "urn:chat-review:problem:" + code.toLowerCase(Locale.ROOT).replace('_', '-'));
    }
}
