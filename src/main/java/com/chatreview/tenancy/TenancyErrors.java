package com.chatreview.tenancy;

import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.ServiceError;
import com.chatreview.ratelimit.RateLimited;
import java.util.List;

/** The failures of tenancy, each a fact. */
final class TenancyErrors {

    private TenancyErrors() {}

    static final class ApiKeyMissing extends ServiceError {
        ApiKeyMissing(String header) {
            super(
                    Code.UNAUTHORIZED,
                    "The " + header + " header is missing",
                    "Send the tenant's API key in the " + header + " header.");
        }
    }

    static final class ApiKeyInvalid extends ServiceError {
        ApiKeyInvalid(String header) {
            super(
                    Code.UNAUTHORIZED,
                    "The API key in " + header + " is not valid",
                    "Check the key: it may be mistyped or revoked. An operator can issue a new one with"
                            + " POST /admin/v1/tenants/{tenantId}/api-keys.");
        }
    }

    static final class AdminApiDisabled extends ServiceError {
        AdminApiDisabled() {
            super(
                    Code.ADMIN_API_DISABLED,
                    "The admin API is turned off on this service",
                    "Start the service with ADMIN_TOKEN set, then send that token in the X-Admin-Token header.");
        }
    }

    static final class AdminTokenInvalid extends ServiceError {
        AdminTokenInvalid() {
            super(
                    Code.UNAUTHORIZED,
                    "The X-Admin-Token header is missing or wrong",
                    "Send the service's ADMIN_TOKEN in the X-Admin-Token header; a tenant API key does not open"
                            + " the admin API.");
        }
    }

    static final class TenantNotFound extends ServiceError {
        TenantNotFound(String tenantId) {
            super(
                    Code.NOT_FOUND,
                    "No tenant with id '" + tenantId + "'",
                    "List the tenants with GET /admin/v1/tenants.");
        }
    }

    static final class ApiKeyNotFound extends ServiceError {
        ApiKeyNotFound(String keyId) {
            super(
                    Code.NOT_FOUND,
                    "The tenant has no API key with id '" + keyId + "'",
                    "Use the id returned when the key was issued.");
        }
    }

    /** The address failed to authenticate too often this minute: the quota's own 429, with Retry-After. */
    static RateLimited tooManyFailedAuthentications() {
        return new RateLimited(
                "Too many failed authentications from this address in the last minute",
                "Wait a minute, then retry with a valid key.",
                60);
    }

    static final class InvalidTenantName extends ServiceError {
        InvalidTenantName() {
            super(
                    Code.VALIDATION_ERROR,
                    "name: must be a non-blank string of at most 200 characters",
                    "Send {\"name\": \"...\"}.",
                    List.of(new FieldProblem("name", "must be a non-blank string of at most 200 characters")));
        }
    }
}
