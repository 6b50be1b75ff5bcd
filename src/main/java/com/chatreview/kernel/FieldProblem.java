package com.chatreview.kernel;

/** One field of a request that is wrong, named as the client wrote it ({@code user_id}, {@code files[2]}). */
public record FieldProblem(String field, String message) {}
