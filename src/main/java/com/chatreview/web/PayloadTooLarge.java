package com.chatreview.web;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** The body, or one file of it, is larger than the service accepts: 413 {@code PAYLOAD_TOO_LARGE}. */
public final class PayloadTooLarge extends ServiceError {

    public PayloadTooLarge(String detail, String fix) {
        super(HttpStatus.CONTENT_TOO_LARGE, "PAYLOAD_TOO_LARGE", detail, fix);
    }

    /**
     * The rest of the body is never read, so the connection cannot carry another request: saying so keeps a
     * client from sending its next request down a connection the server is about to close.
     */
    @Override
    public HttpHeaders headers() {
        return closing();
    }

    static HttpHeaders closing() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.CONNECTION, "close");
        return headers;
    }
}
