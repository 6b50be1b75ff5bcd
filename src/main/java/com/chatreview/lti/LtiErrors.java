package com.chatreview.lti;

import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.ServiceError;
import java.util.List;

/** The failures of the LTI module's API, each a fact. */
public final class LtiErrors {

    private LtiErrors() {}

    /** No such platform for this tenant (it may exist for another: that is not told). */
    public static final class PlatformNotFound extends ServiceError {
        PlatformNotFound(Object id) {
            super(
                    Code.NOT_FOUND,
                    "No LTI platform with id '" + id + "'",
                    "List the tenant's platforms with GET /api/v1/lti/platforms, or register one with POST"
                            + " /api/v1/lti/platforms.");
        }
    }

    /**
     * The issuer and client id are registered already: launches name only these two, so they can lead to one
     * registration alone.
     */
    public static final class PlatformAlreadyRegistered extends ServiceError {
        PlatformAlreadyRegistered(String issuer, String clientId) {
            super(
                    Code.CONFLICT,
                    "The platform '" + issuer + "' with client_id '" + clientId + "' is registered already",
                    "Use the registration there is (GET /api/v1/lti/platforms), or delete it first. If another tenant"
                            + " holds it, ask the platform for a new client_id.",
                    List.of(new FieldProblem("client_id", "is registered already for this issuer")));
        }
    }

    /** The tenant has as many platforms as the operator allows. */
    public static final class TooManyPlatforms extends ServiceError {
        TooManyPlatforms(int limit) {
            super(
                    Code.VALIDATION_ERROR,
                    "The tenant has " + limit + " LTI platforms registered, the most allowed",
                    "Delete a platform no longer used (DELETE /api/v1/lti/platforms/{id}).");
        }
    }
}
