package com.chatreview.webhook;

import com.chatreview.kernel.ServiceError;

/** The failures of the webhook module, each a fact. */
public final class WebhookErrors {

    private WebhookErrors() {}

    /** No such endpoint for this tenant (it may exist for another: that is not told). */
    public static final class WebhookNotFound extends ServiceError {
        WebhookNotFound(Object id) {
            super(
                    Code.NOT_FOUND,
                    "No webhook endpoint with id '" + id + "'",
                    "List the tenant's endpoints with GET /api/v1/webhooks, or register one with POST"
                            + " /api/v1/webhooks.");
        }
    }

    /** No such delivery of this endpoint. */
    public static final class DeliveryNotFound extends ServiceError {
        DeliveryNotFound(Object id) {
            super(
                    Code.NOT_FOUND,
                    "No delivery with id '" + id + "' of this endpoint",
                    "List the endpoint's deliveries with GET /api/v1/webhooks/{id}/deliveries.");
        }
    }
}
