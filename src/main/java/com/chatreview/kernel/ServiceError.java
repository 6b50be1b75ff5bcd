package com.chatreview.kernel;

import java.util.List;

/**
 * A failure the client can act on. Each module names its failures as facts ({@code ChatNotFound},
 * {@code HomeworkNotFound}) by extending this class with a {@link Code}, a detail and a fix. It knows no HTTP: the
 * {@code web} module gives each code its status and renders the RFC 9457 problem body; {@code realtime} tells the
 * same failure as a WebSocket {@code error} event.
 */
public abstract class ServiceError extends RuntimeException {

    /**
     * The kinds of failure the interface names, each the {@code code} of its problem body as it is written here. A
     * new kind needs a status in the web module's table, or the build fails.
     */
    public enum Code {
        /** The request breaks a rule of the interface: a field, a parameter, a body. */
        VALIDATION_ERROR,
        /** No credentials, or credentials the service does not accept. */
        UNAUTHORIZED,
        /** The chat page needs an embed token and none came. */
        EMBED_TOKEN_REQUIRED,
        /** The embed token is not one the service signed for this chat. */
        EMBED_TOKEN_INVALID,
        /** The embed token is past its expiry. */
        EMBED_TOKEN_EXPIRED,
        /** The operator API is turned off on this service. */
        ADMIN_API_DISABLED,
        /** What the request names does not exist (for this tenant). */
        NOT_FOUND,
        /** The request contradicts the state of what it names. */
        CONFLICT,
        /** The chat is closed to new messages. */
        CHAT_CLOSED,
        /** The first request with this Idempotency-Key is still running. */
        IDEMPOTENCY_KEY_IN_USE,
        /** The Idempotency-Key came with a different request before. */
        IDEMPOTENCY_KEY_REUSED,
        /** The body, or a file of it, is larger than the service accepts. */
        PAYLOAD_TOO_LARGE,
        /** A quota is spent for now. */
        RATE_LIMITED,
        /** The tenant's stored files would pass what the operator allows it. */
        STORAGE_QUOTA_EXCEEDED,
        /** A dependency cannot be reached now; nothing was done. */
        SERVICE_UNAVAILABLE
    }

    private final Code code;
    private final String fix;
    private final List<FieldProblem> errors;

    protected ServiceError(Code code, String detail, String fix) {
        this(code, detail, fix, List.of());
    }

    protected ServiceError(Code code, String detail, String fix, List<FieldProblem> errors) {
        // expected failures are part of normal traffic: no stack trace to fill in
        super(detail, null, false, false);
        this.code = code;
        this.fix = fix;
        this.errors = List.copyOf(errors);
    }

    public Code code() {
        return code;
    }

    public String fix() {
        return fix;
    }

    public List<FieldProblem> errors() {
        return errors;
    }
}
