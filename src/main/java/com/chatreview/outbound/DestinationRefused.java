package com.chatreview.outbound;

import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.ServiceError;
import java.util.List;

/** The service may not connect to the URL: not https, not absolute, or an address of a private network. */
public final class DestinationRefused extends ServiceError {
    DestinationRefused(String field, String url, String why, String fix) {
        super(Code.VALIDATION_ERROR, field + ": " + why, fix, List.of(new FieldProblem(field, why + " (" + url + ")")));
    }
}
