package com.chatreview.lti.launch;

import com.chatreview.lti.LtiPlatform;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A launch whose {@code id_token} passed every check: who launched, from where, and what the platform offers the tool
 * (its grade service, or the deep linking return).
 *
 * @param studentId the user as homework and submissions know them: {@code lti:{platform id}:{sub}}
 */
public record LtiLaunch(
        LtiPlatform platform,
        String messageType,
        String deploymentId,
        String sub,
        String studentId,
        @Nullable String name,
        @Nullable String email,
        List<String> roles,
        @Nullable Context context,
        @Nullable ResourceLink resourceLink,
        Map<String, String> custom,
        @Nullable GradeService gradeService,
        @Nullable DeepLinking deepLinking,
        String targetLinkUri,
        @Nullable String returnUrl) {

    public static final String RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest";
    public static final String DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest";

    private static final List<String> TEACHING_ROLES = List.of(
            "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
            "http://purl.imsglobal.org/vocab/lis/v2/membership#ContentDeveloper",
            "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant",
            "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator",
            "http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator");

    public LtiLaunch {
        roles = List.copyOf(roles);
        custom = Map.copyOf(custom);
    }

    /** The course (the LTI context) the launch came from. */
    public record Context(
            String id, @Nullable String label, @Nullable String title) {}

    /** The placement of the tool that was clicked. */
    public record ResourceLink(String id, @Nullable String title) {}

    /** The platform's Assignment and Grade Services claim: its scopes, the line items container, the line item. */
    public record GradeService(
            List<String> scopes,
            @Nullable String lineItems,
            @Nullable String lineItem) {}

    /**
     * Where a deep linking response goes, and what it may hold ({@code acceptLineItem}: whether a content item may
     * carry a line item; {@code null} in a session written before it was read, taken as accepted).
     */
    public record DeepLinking(
            String returnUrl,
            List<String> acceptTypes,
            boolean acceptMultiple,
            @Nullable String data,
            @Nullable Boolean acceptLineItem) {

        public boolean lineItemAccepted() {
            return !Boolean.FALSE.equals(acceptLineItem);
        }
    }

    /** Whether the user teaches (instructor, teaching assistant, content developer, administrator): not a learner. */
    public boolean teaches() {
        return roles.stream().anyMatch(TEACHING_ROLES::contains);
    }

    /** The launch as a session keeps it: without the email, which no page shows. */
    LtiLaunch withoutEmail() {
        return new LtiLaunch(
                platform,
                messageType,
                deploymentId,
                sub,
                studentId,
                name,
                null,
                roles,
                context,
                resourceLink,
                custom,
                gradeService,
                deepLinking,
                targetLinkUri,
                returnUrl);
    }

    /**
     * The origins that may frame the tool's pages of this launch: the platform's (its issuer and registered URLs) and
     * those of the URLs its signed launch names (the gradebook's, the deep linking return's, the page it returns to),
     * which are the LMS's own site where it differs from the issuer (Canvas: a school's domain, not the issuer's).
     */
    public List<String> frameOrigins() {
        LinkedHashSet<String> origins = new LinkedHashSet<>(platform.frameOrigins());
        Stream.of(
                        gradeService == null ? null : gradeService.lineItems(),
                        gradeService == null ? null : gradeService.lineItem(),
                        deepLinking == null ? null : deepLinking.returnUrl(),
                        returnUrl)
                .map(LtiPlatform::originOf)
                .filter(Objects::nonNull)
                .forEach(origins::add);
        return List.copyOf(origins);
    }

    public boolean deepLinkingRequest() {
        return DEEP_LINKING_REQUEST.equals(messageType);
    }
}
