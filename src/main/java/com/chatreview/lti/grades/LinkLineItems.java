package com.chatreview.lti.grades;

import com.chatreview.homework.Homework;
import com.chatreview.lti.deeplinking.LtiDeepLinking;
import com.chatreview.lti.keys.PlatformHttp;
import com.chatreview.lti.keys.PlatformTokens;
import com.chatreview.lti.launch.LtiLaunch;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gradebook column of a resource link whose launches name none (a link set up by hand, with {@code homework_id}
 * among its custom parameters): the platform's line items container is asked for the link's column (every page of
 * it), and one is made there when it has none ({@code scoreMaximum} the rubric's total points, {@code resourceId} the
 * homework, {@code resourceLinkId} the link). What was found or made is kept ({@code lti_link_line_items}), so the
 * platform is asked once per link and homework.
 *
 * <p>The platform is asked with no transaction open, so a slow LMS holds none of the service's connections: the
 * first launch of a link, on any node, claims the link's row for {@link #CLAIM}, and the launches that come
 * meanwhile wait for its answer rather than make a second column. A platform that could not be asked is asked
 * again by the first launch after {@link #AFTER_FAILURE}; the launches before then go without a column.
 */
@Component
class LinkLineItems {

    private static final Logger log = LoggerFactory.getLogger(LinkLineItems.class);
    static final String LINE_ITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json";
    static final String CONTAINER_TYPE = "application/vnd.ims.lis.v2.lineitemcontainer+json";
    /** Longer than a token's fetch, the container's pages and the post take. */
    static final Duration CLAIM = Duration.ofMinutes(1);

    static final Duration AFTER_FAILURE = Duration.ofMinutes(1);
    /** Line items of one link, a page each: past these, the column is made rather than looked for further. */
    private static final int MAX_PAGES = 20;

    private static final Pattern NEXT_PAGE = Pattern.compile("<([^>]*)>\\s*;[^,]*rel=\"?next\"?");

    private final JdbcClient jdbc;
    private final PlatformTokens tokens;
    private final PlatformHttp http;
    private final JsonMapper json;

    LinkLineItems(JdbcClient jdbc, PlatformTokens tokens, PlatformHttp http, JsonMapper json) {
        this.jdbc = jdbc;
        this.tokens = tokens;
        this.http = http;
        this.json = json;
    }

    /**
     * The column of the launch's link for the homework, found or made; none when the launch allows neither (no
     * container, no line item scope, no resource link), or the platform could not be asked now.
     */
    Optional<String> of(LtiLaunch launch, Homework homework) {
        LtiLaunch.GradeService service = launch.gradeService();
        LtiLaunch.ResourceLink link = launch.resourceLink();
        if (service == null
                || service.lineItems() == null
                || link == null
                || !service.scopes().contains(PlatformTokens.LINE_ITEM_SCOPE)) {
            return Optional.empty();
        }
        Key key = new Key(launch.platform().id(), link.id(), homework.id().value());
        UUID claim = UUID.randomUUID();
        Instant waitUntil = Instant.now().plus(CLAIM);
        while (true) {
            Kept kept = kept(key);
            if (kept.url() != null) {
                return Optional.of(kept.url());
            }
            if (claimed(key, claim)) {
                break;
            }
            if (kept.failedRecently() || Instant.now().isAfter(waitUntil)) {
                return Optional.empty();
            }
            try {
                Thread.sleep(WAIT_STEP.toMillis()); // another launch is asking the platform: its answer is ours
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        try {
            String found = findOrMake(launch, Objects.requireNonNull(service.lineItems()), link, homework);
            jdbc.sql("""
                            UPDATE lti_link_line_items
                            SET line_item_url = :url, claim = NULL, claimed_until = NULL, last_error = NULL
                            WHERE platform_id = :platform AND resource_link_id = :link AND homework_id = :homework
                              AND claim = :claim""")
                    .param("url", found)
                    .params(key.params())
                    .param("claim", claim)
                    .update();
            return Optional.of(found);
        } catch (PlatformUnavailable unavailable) {
            log.warn(
                    "The line item of resource link {} of platform {} could not be found or made now: {}",
                    link.id(),
                    launch.platform().id(),
                    unavailable.getMessage());
            jdbc.sql("""
                            UPDATE lti_link_line_items
                            SET claimed_until = now() + :afterMillis * interval '1 millisecond', last_error = :error
                            WHERE platform_id = :platform AND resource_link_id = :link AND homework_id = :homework
                              AND claim = :claim""")
                    .param("afterMillis", AFTER_FAILURE.toMillis())
                    .param("error", String.valueOf(unavailable.getMessage()))
                    .params(key.params())
                    .param("claim", claim)
                    .update();
            return Optional.empty();
        }
    }

    private static final Duration WAIT_STEP = Duration.ofMillis(200);

    private record Key(UUID platform, String link, UUID homework) {
        Map<String, Object> params() {
            return Map.of("platform", platform, "link", link, "homework", homework);
        }
    }

    /** The column kept for the link, if any; whether the platform failed to give one a moment ago. */
    private record Kept(@Nullable String url, boolean failedRecently) {}

    private Kept kept(Key key) {
        return jdbc.sql("""
                        SELECT line_item_url, last_error IS NOT NULL AND claimed_until > now() AS failed_recently
                        FROM lti_link_line_items
                        WHERE platform_id = :platform AND resource_link_id = :link AND homework_id = :homework""")
                .params(key.params())
                .query((rs, row) -> new Kept(rs.getString("line_item_url"), rs.getBoolean("failed_recently")))
                .optional()
                .orElse(new Kept(null, false));
    }

    /** Claims the link's row for asking the platform: none kept, and no other launch asking or just failed. */
    private boolean claimed(Key key, UUID claim) {
        return jdbc.sql("""
                        INSERT INTO lti_link_line_items
                            (platform_id, resource_link_id, homework_id, line_item_url, created_at, claim,
                             claimed_until)
                        VALUES (:platform, :link, :homework, NULL, now(), :claim,
                                now() + :claimMillis * interval '1 millisecond')
                        ON CONFLICT (platform_id, resource_link_id, homework_id) DO UPDATE
                        SET claim = EXCLUDED.claim, claimed_until = EXCLUDED.claimed_until, last_error = NULL
                        WHERE lti_link_line_items.line_item_url IS NULL
                          AND lti_link_line_items.claimed_until <= now()
                        RETURNING claim""")
                .params(key.params())
                .param("claim", claim)
                .param("claimMillis", CLAIM.toMillis())
                .query(UUID.class)
                .optional()
                .isPresent();
    }

    private String findOrMake(LtiLaunch launch, String container, LtiLaunch.ResourceLink link, Homework homework) {
        try {
            String token = tokens.token(launch.platform(), PlatformTokens.LINE_ITEM_SCOPE);
            URI page = withQuery(container, "resource_link_id=" + URLEncoder.encode(link.id(), StandardCharsets.UTF_8));
            for (int pages = 0; page != null && pages < MAX_PAGES; pages++) {
                PlatformHttp.Answer found =
                        http.get(page, Map.of("Authorization", "Bearer " + token, "Accept", CONTAINER_TYPE));
                if (found.status() != 200) {
                    // not knowing the link's columns, making one could make a second
                    throw refused(launch, token, "the line items container answered", found);
                }
                for (JsonNode item : parsed(found, "the line items container's answer")) {
                    JsonNode id = item.get("id");
                    JsonNode resourceId = item.get("resourceId");
                    if (id != null
                            && id.isString()
                            && sameOrigin(container, id.asString())
                            && (resourceId == null
                                    || resourceId.isNull()
                                    || resourceId
                                            .asString()
                                            .equals(homework.id().value().toString()))) {
                        return id.asString();
                    }
                }
                page = nextPage(found);
                if (page != null && !sameOrigin(container, page.toString())) {
                    // the token goes to the container's origin alone, wherever its pages point
                    throw new PlatformUnavailable("the line items container's next page is on another origin");
                }
            }
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("scoreMaximum", homework.rubric().totalPoints());
            item.put("label", LtiDeepLinking.titleOf(homework));
            item.put("resourceId", homework.id().value().toString());
            item.put("tag", "homework-review");
            item.put("resourceLinkId", link.id());
            PlatformHttp.Answer made = http.post(
                    URI.create(container),
                    LINE_ITEM_TYPE,
                    json.writeValueAsString(item),
                    Map.of("Authorization", "Bearer " + token, "Accept", LINE_ITEM_TYPE));
            if (made.status() / 100 != 2) {
                throw refused(launch, token, "the line items container answered", made);
            }
            JsonNode id = parsed(made, "the line item made").get("id");
            if (id == null || !id.isString()) {
                throw new PlatformUnavailable("the line item made has no id");
            }
            if (!sameOrigin(container, id.asString())) {
                throw new PlatformUnavailable("the line item made is on another origin than its container");
            }
            return id.asString();
        } catch (IOException | RuntimeException e) {
            if (e instanceof PlatformUnavailable unavailable) {
                throw unavailable;
            }
            throw new PlatformUnavailable(String.valueOf(e.getMessage()));
        }
    }

    private PlatformUnavailable refused(LtiLaunch launch, String token, String what, PlatformHttp.Answer answer) {
        if (answer.status() == 401) {
            tokens.refused(launch.platform(), token); // the next launch asks with a fresh one
        }
        return new PlatformUnavailable(what + " " + answer.status()); // the body is the platform's: never kept
    }

    private JsonNode parsed(PlatformHttp.Answer answer, String what) {
        try {
            return json.readTree(answer.body());
        } catch (RuntimeException e) {
            // a parser's message quotes the body: not kept
            throw new PlatformUnavailable(what + " is not JSON");
        }
    }

    /**
     * Whether the URL is on the container's origin (scheme, host and port): the URLs a token may go to besides the
     * launch's own claims.
     */
    static boolean sameOrigin(String container, String url) {
        try {
            URI from = URI.create(container);
            URI to = URI.create(url);
            return from.getScheme() != null
                    && from.getScheme().equalsIgnoreCase(to.getScheme())
                    && from.getHost() != null
                    && from.getHost().equalsIgnoreCase(to.getHost())
                    && port(from) == port(to)
                    && to.getRawUserInfo() == null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static int port(URI uri) {
        if (uri.getPort() != -1) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    /** The next page of the container, as its {@code Link} header gives it (RFC 8288), if any. */
    static @Nullable URI nextPage(PlatformHttp.Answer answer) {
        for (String link : answer.headers().getValuesList("Link")) {
            Matcher next = NEXT_PAGE.matcher(link);
            if (next.find()) {
                try {
                    return URI.create(next.group(1).strip());
                } catch (IllegalArgumentException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** The container's URL with one more query parameter (Moodle's container has a query of its own). */
    private static URI withQuery(String url, String parameter) {
        URI uri = URI.create(url);
        return URI.create(url + (uri.getRawQuery() == null ? "?" : "&") + parameter);
    }

    private static final class PlatformUnavailable extends RuntimeException {
        PlatformUnavailable(String message) {
            super(message, null, false, false);
        }
    }
}
