package com.chatreview.lti;

import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.ServiceError;
import java.util.List;

/** The failures of the LTI module's API, each a fact. */
public final class LtiErrors {

    private LtiErrors() {}

    /** No such platform for this tenant (it may exist for another: that is not told). */
    public static final class PlatformNotFound extends ServiceError {
        public PlatformNotFound(Object id) {
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
        public PlatformAlreadyRegistered(String issuer, String clientId, String deploymentId) {
            super(
                    Code.CONFLICT,
                    "The deployment '" + deploymentId + "' of the platform '" + issuer + "' with client_id '" + clientId
                            + "' is registered already",
                    "Use the registration there is (GET /api/v1/lti/platforms), or delete it first. If another tenant"
                            + " holds it, the LMS's administrator can make a new deployment of the tool.",
                    List.of(new FieldProblem("deployment_ids", "'" + deploymentId + "' is registered already")));
        }
    }

    /**
     * Another tenant registered a platform with the same {@code client_id} and token endpoint: access tokens of that
     * client are the other school's, so no second tenant may ask for them.
     */
    public static final class ClientHeldByAnotherTenant extends ServiceError {
        public ClientHeldByAnotherTenant(String clientId, String tokenUrl) {
            super(
                    Code.CONFLICT,
                    "Another tenant registered a platform with client_id '" + clientId + "' and auth_token_url '"
                            + tokenUrl + "'",
                    "Ask the LMS's administrator for a client id of your own (a new registration of the tool in the"
                            + " LMS). If the registration there is yours by right, the service's operator can find"
                            + " and remove the other.",
                    List.of(new FieldProblem("client_id", "is held by another tenant for this auth_token_url")));
        }
    }

    /** The tenant has as many platforms as the operator allows. */
    public static final class TooManyPlatforms extends ServiceError {
        public TooManyPlatforms(int limit) {
            super(
                    Code.VALIDATION_ERROR,
                    "The tenant has " + limit + " LTI platforms registered, the most allowed",
                    "Delete a platform no longer used (DELETE /api/v1/lti/platforms/{id}).");
        }
    }
}
