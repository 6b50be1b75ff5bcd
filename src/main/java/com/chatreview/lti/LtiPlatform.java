package com.chatreview.lti;

import com.chatreview.tenancy.TenantId;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * An LMS registered by a tenant: who it is ({@code issuer}, the {@code client_id} it gave the tool, its deployments)
 * and where the tool reaches it.
 */
public record LtiPlatform(
        UUID id,
        TenantId tenantId,
        String issuer,
        String clientId,
        List<String> deploymentIds,
        String authLoginUrl,
        String authTokenUrl,
        String jwksUrl,
        Instant createdAt) {

    /** How the ids of LMS users begin, as the service knows them: {@code lti:{platform id}:{sub}}. */
    public static final String STUDENT_PREFIX = "lti:";

    public LtiPlatform {
        deploymentIds = List.copyOf(deploymentIds);
    }

    /** The {@code studentId} of the platform's user {@code sub}, as homework and submissions know them. */
    public String studentIdOf(String sub) {
        return STUDENT_PREFIX + id + ":" + sub;
    }
}
