package com.chatreview.chatui;

import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.InvalidInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's new chat page settings, replacing the old ones whole; an absent list is {@code null} ("anywhere").
 * Every entry is checked here, so that nothing but an origin ever reaches a CSP header or an origin comparison.
 */
public record PolicyChange(
        @Nullable Boolean requireEmbedToken,
        @Nullable List<String> frameAncestors,
        @Nullable List<String> allowedOrigins) {

    static final int MAX_ENTRIES = 20;

    /** {@code http(s)://host[:port]}; the host may start with {@code *.} (any subdomain), the port may be {@code *}. */
    private static final Pattern FRAME_SOURCE =
            Pattern.compile("https?://(\\*\\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*"
                    + "(:([0-9]{1,5}|\\*))?");

    /** {@code http(s)://host[:port]}, exactly: what a browser sends as {@code Origin}. */
    private static final Pattern ORIGIN = Pattern.compile(
            "https?://[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*" + "(:[0-9]{1,5})?");

    /** The policy this change makes, or 400 naming every entry that is wrong. */
    EmbedPolicy apply(java.util.UUID tenantId) {
        List<FieldProblem> problems = new ArrayList<>();
        List<String> ancestors = checked("frame_ancestors", frameAncestors, true, problems);
        List<String> origins = checked("allowed_origins", allowedOrigins, false, problems);
        if (!problems.isEmpty()) {
            throw InvalidInput.fields(
                    problems,
                    "Send {\"require_embed_token\": true|false, \"frame_ancestors\": [\"https://lms.example.org\","
                            + " \"https://*.example.org\", \"'self'\"] or null, \"allowed_origins\":"
                            + " [\"https://lms.example.org\"] or null}.");
        }
        return new EmbedPolicy(tenantId, Boolean.TRUE.equals(requireEmbedToken), ancestors, origins);
    }

    private static @Nullable List<String> checked(
            String field, @Nullable List<String> values, boolean frameSources, List<FieldProblem> problems) {
        if (values == null) {
            return null;
        }
        if (values.size() > MAX_ENTRIES) {
            problems.add(new FieldProblem(field, "must hold at most " + MAX_ENTRIES + " entries"));
            return null;
        }
        List<String> cleaned = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i);
            String normal = normal(value);
            boolean self = frameSources && "'self'".equals(normal);
            if (normal == null
                    || !(self
                            || (frameSources ? FRAME_SOURCE : ORIGIN)
                                    .matcher(normal)
                                    .matches())) {
                problems.add(new FieldProblem(
                        field + "[" + i + "]",
                        frameSources
                                ? "must be 'self' or an origin such as https://lms.example.org (the host may start"
                                        + " with *.), was '" + value + "'"
                                : "must be an origin such as https://lms.example.org, was '" + value + "'"));
            } else if (!cleaned.contains(normal)) {
                cleaned.add(normal);
            }
        }
        return cleaned;
    }

    private static @Nullable String normal(@Nullable String value) {
        if (value == null || value.length() > 255) {
            return null;
        }
        String normal = value.strip().toLowerCase(Locale.ROOT);
        return normal.endsWith("/") ? normal.substring(0, normal.length() - 1) : normal;
    }
}
