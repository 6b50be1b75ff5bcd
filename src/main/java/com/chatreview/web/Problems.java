package com.chatreview.web;

import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.StorableText;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** Builds the problem body of docs/api.md, Conventions; used by {@link ProblemRendering} and the error page. */
final class Problems {

    private Problems() {}

    static ProblemDetail body(
            HttpStatus status,
            String code,
            String detail,
            String fix,
            List<FieldProblem> errors,
            HttpServletRequest request) {
        // a detail or a field may quote what the client sent, which may hold what no UTF-8 can carry
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, StorableText.printable(detail));
        problem.setType(ProblemRendering.typeOf(code));
        problem.setTitle(status.getReasonPhrase());
        problem.setProperty("code", code);
        problem.setProperty("fix", fix);
        problem.setProperty(
                "errors",
                errors == null
                        ? List.of()
                        : errors.stream()
                                .map(error -> new FieldProblem(
                                        StorableText.printable(error.field()), StorableText.printable(error.message())))
                                .toList());
        problem.setProperty("request_id", request == null ? null : RequestIds.of(request));
        return problem;
    }
}
