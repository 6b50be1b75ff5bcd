package com.chatreview.homework;

import com.chatreview.kernel.ServiceError;

/** The failures of the homework module, each a fact. */
public final class HomeworkErrors {

    private HomeworkErrors() {}

    public static final class HomeworkNotFound extends ServiceError {
        public HomeworkNotFound(Object homeworkId) {
            super(
                    Code.NOT_FOUND,
                    "No homework with id '" + homeworkId + "'",
                    "List the assignments with GET /v1/homeworks and use an id from there.");
        }
    }
}
