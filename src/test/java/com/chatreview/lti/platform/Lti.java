package com.chatreview.lti.platform;

import java.util.List;

/**
 * The LTI 1.3 vocabulary, written out from the 1EdTech specifications (LTI Core 1.3, Deep Linking 2.0, Assignment and
 * Grade Services 2.0) for the platform emulator. The tests spell it on their own side, not through the service's
 * constants, so that a misspelt claim in the service fails them.
 */
public final class Lti {

    public static final String CLAIM = "https://purl.imsglobal.org/spec/lti/claim/";
    public static final String MESSAGE_TYPE = CLAIM + "message_type";
    public static final String VERSION = CLAIM + "version";
    public static final String DEPLOYMENT_ID = CLAIM + "deployment_id";
    public static final String TARGET_LINK_URI = CLAIM + "target_link_uri";
    public static final String RESOURCE_LINK = CLAIM + "resource_link";
    public static final String ROLES = CLAIM + "roles";
    public static final String CONTEXT = CLAIM + "context";
    public static final String TOOL_PLATFORM = CLAIM + "tool_platform";
    public static final String LAUNCH_PRESENTATION = CLAIM + "launch_presentation";
    public static final String CUSTOM = CLAIM + "custom";

    public static final String DEEP_LINKING_SETTINGS =
            "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings";
    public static final String CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items";
    public static final String DEEP_LINKING_DATA = "https://purl.imsglobal.org/spec/lti-dl/claim/data";
    public static final String DEEP_LINKING_MSG = "https://purl.imsglobal.org/spec/lti-dl/claim/msg";
    public static final String DEEP_LINKING_ERRORMSG = "https://purl.imsglobal.org/spec/lti-dl/claim/errormsg";

    public static final String AGS_ENDPOINT = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint";
    public static final String SCOPE_LINE_ITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem";
    public static final String SCOPE_LINE_ITEM_READONLY =
            "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly";
    public static final String SCOPE_SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score";
    public static final String SCOPE_RESULT_READONLY = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly";
    public static final List<String> AGS_SCOPES =
            List.of(SCOPE_LINE_ITEM, SCOPE_LINE_ITEM_READONLY, SCOPE_SCORE, SCOPE_RESULT_READONLY);

    public static final String RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest";
    public static final String DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest";
    public static final String DEEP_LINKING_RESPONSE = "LtiDeepLinkingResponse";

    public static final String LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";
    public static final String INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";
    public static final String COURSE_OFFERING = "http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering";

    public static final String JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

    public static final String LINE_ITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json";
    public static final String LINE_ITEM_CONTAINER_TYPE = "application/vnd.ims.lis.v2.lineitemcontainer+json";
    public static final String SCORE_TYPE = "application/vnd.ims.lis.v1.score+json";

    public static final List<String> ACTIVITY_PROGRESS =
            List.of("Initialized", "Started", "InProgress", "Submitted", "Completed");
    public static final List<String> GRADING_PROGRESS =
            List.of("FullyGraded", "Pending", "PendingManual", "Failed", "NotReady");

    private Lti() {}
}
