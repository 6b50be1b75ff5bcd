package com.chatreview.lti.platforms;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** A platform to register, as the tenant sent it (checked by {@link LtiPlatforms#register}). */
public record NewPlatform(
        @Nullable String issuer,
        @Nullable String clientId,
        @Nullable List<String> deploymentIds,
        @Nullable String authLoginUrl,
        @Nullable String authTokenUrl,
        @Nullable String jwksUrl) {}
