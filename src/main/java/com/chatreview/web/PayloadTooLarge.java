package com.chatreview.web;

import org.springframework.http.HttpStatus;

/** The body, or one file of it, is larger than the service accepts: 413 {@code PAYLOAD_TOO_LARGE}. */
public final class PayloadTooLarge extends ServiceError {

    public PayloadTooLarge(String detail, String fix) {
        super(HttpStatus.CONTENT_TOO_LARGE, "PAYLOAD_TOO_LARGE", detail, fix);
    }
}
