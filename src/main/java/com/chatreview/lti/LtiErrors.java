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
     * A deployment of the issuer and client id is registered already: a launch names only these three, so they lead
     * to one registration alone.
     */
    public static final class PlatformAlreadyRegistered extends ServiceError {
        PlatformAlreadyRegistered(String issuer, String clientId, String deploymentId) {
            super(
                    Code.CONFLICT,
                    "The deployment '" + deploymentId + "' of the platform '" + issuer + "' with client_id '" + clientId
                            + "' is registered already",
                    "Use the registration there is (GET /api/v1/lti/platforms), or delete it first. If another tenant"
                            + " holds it, the LMS's administrator can make a new deployment of the tool.",
                    List.of(new FieldProblem("deployment_ids", "'" + deploymentId + "' is registered already")));
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
