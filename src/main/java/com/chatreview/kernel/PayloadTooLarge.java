package com.chatreview.kernel;

/**
 * The body, or one file of it, is larger than the service accepts: {@code PAYLOAD_TOO_LARGE}. The rest of the body
 * is never read, which the web module tells the client (the connection closes after the answer).
 */
public final class PayloadTooLarge extends ServiceError {

    public PayloadTooLarge(String detail, String fix) {
        super(Code.PAYLOAD_TOO_LARGE, detail, fix);
    }
}
