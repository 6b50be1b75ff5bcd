package com.chatreview.homework;

import com.chatreview.web.ServiceError;
import org.springframework.http.HttpStatus;

/** The failures of the homework module, each a fact. */
public final class HomeworkErrors {

    private HomeworkErrors() {}

    public static final class HomeworkNotFound extends ServiceError {
        public HomeworkNotFound(Object homeworkId) {
            super(
                    HttpStatus.NOT_FOUND,
                    "NOT_FOUND",
                    "No homework with id '" + homeworkId + "'",
                    "List the assignments with GET /v1/homeworks and use an id from there.");
        }
    }
}
