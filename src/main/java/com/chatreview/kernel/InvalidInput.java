package com.chatreview.kernel;

import java.util.List;

/** The request is malformed or breaks a rule of the interface: {@code VALIDATION_ERROR}. */
public final class InvalidInput extends ServiceError {

    public InvalidInput(String detail, String fix, List<FieldProblem> errors) {
        super(Code.VALIDATION_ERROR, detail, fix, errors);
    }

    public static InvalidInput field(String field, String message, String fix) {
        return new InvalidInput(field + ": " + message, fix, List.of(new FieldProblem(field, message)));
    }

    public static InvalidInput fields(List<FieldProblem> problems, String fix) {
        String detail = problems.stream()
                .map(problem -> problem.field() + ": " + problem.message())
                .reduce((a, b) -> a + "; " + b)
                .orElse("The request is not valid");
        return new InvalidInput(detail, fix, problems);
    }
}
