package com.chatreview.web;

import com.chatreview.kernel.FieldProblem;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/**
 * A failure the client can act on. Each module names its failures as facts ({@code ChatNotFound},
 * {@code HomeworkNotFound}) by extending this class; {@link ProblemRendering} turns every one of them into the
 * same RFC 9457 problem body with its {@code code} and {@code fix}.
 */
public abstract class ServiceError extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final String fix;
    private final List<FieldProblem> errors;

    protected ServiceError(HttpStatus status, String code, String detail, String fix) {
        this(status, code, detail, fix, List.of());
    }

    protected ServiceError(HttpStatus status, String code, String detail, String fix, List<FieldProblem> errors) {
        // expected failures are part of normal traffic: no stack trace to fill in
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.fix = fix;
        this.errors = List.copyOf(errors);
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String fix() {
        return fix;
    }

    public List<FieldProblem> errors() {
        return errors;
    }

    /** Headers the response must carry besides the problem body, such as {@code Retry-After}. */
    public HttpHeaders headers() {
        return HttpHeaders.EMPTY;
    }
}
