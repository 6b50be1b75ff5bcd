package com.chatreview.lti;

import com.chatreview.database.Sql;
import com.chatreview.homework.Homework;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gradebook column of a resource link whose launches name none (a link set up by hand, with {@code homework_id}
 * among its custom parameters): the platform's line items container is asked for the link's column, and one is made
 * there when it has none ({@code scoreMaximum} the rubric's total points, {@code resourceId} the homework,
 * {@code resourceLinkId} the link). What was found or made is kept ({@code lti_link_line_items}), so the platform is
 * asked once per link and homework; the first launches of a link, on any node, wait for one another (an advisory
 * lock) rather than making two columns.
 */
class LinkLineItems {

    private static final Logger log = LoggerFactory.getLogger(LinkLineItems.class);
    static final String LINE_ITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json";
    static final String CONTAINER_TYPE = "application/vnd.ims.lis.v2.lineitemcontainer+json";

    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;
    private final PlatformTokens tokens;
    private final PlatformHttp http;
    private final JsonMapper json;
    private final Clock clock;

    LinkLineItems(
            JdbcClient jdbc,
            TransactionTemplate transaction,
            PlatformTokens tokens,
            PlatformHttp http,
            JsonMapper json,
            Clock clock) {
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.tokens = tokens;
        this.http = http;
        this.json = json;
        this.clock = clock;
    }

    /**
     * The column of the launch's link for the homework, found or made; none when the launch allows neither (no
     * container, no line item scope, no resource link), or the platform could not be asked now (the next launch
     * asks again).
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
        Optional<String> kept = kept(launch, link, homework);
        if (kept.isPresent()) {
            return kept;
        }
        try {
            return Optional.ofNullable(transaction.execute(status -> {
                jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")
                        .param("key", "lti-line-item:" + launch.platform().id() + ":" + link.id())
                        .query(Object.class)
                        .single();
                Optional<String> meanwhile = kept(launch, link, homework);
                if (meanwhile.isPresent()) {
                    return meanwhile.get();
                }
                String made = findOrMake(launch, Objects.requireNonNull(service.lineItems()), link, homework);
                jdbc.sql("""
                                INSERT INTO lti_link_line_items
                                    (platform_id, resource_link_id, homework_id, line_item_url, created_at)
                                VALUES (:platform, :link, :homework, :url, :now)""")
                        .param("platform", launch.platform().id())
                        .param("link", link.id())
                        .param("homework", homework.id().value())
                        .param("url", made)
                        .param("now", Sql.at(clock.instant()))
                        .update();
                return made;
            }));
        } catch (PlatformUnavailable unavailable) {
            log.warn(
                    "The line item of resource link {} of platform {} could not be found or made now: {}",
                    link.id(),
                    launch.platform().id(),
                    unavailable.getMessage());
            return Optional.empty();
        }
    }

    private Optional<String> kept(LtiLaunch launch, LtiLaunch.ResourceLink link, Homework homework) {
        return jdbc.sql("""
                        SELECT line_item_url FROM lti_link_line_items
                        WHERE platform_id = :platform AND resource_link_id = :link AND homework_id = :homework""")
                .param("platform", launch.platform().id())
                .param("link", link.id())
                .param("homework", homework.id().value())
                .query(String.class)
                .optional();
    }

    private String findOrMake(LtiLaunch launch, String container, LtiLaunch.ResourceLink link, Homework homework) {
        try {
            String token = tokens.token(launch.platform(), PlatformTokens.LINE_ITEM_SCOPE);
            PlatformHttp.Answer found = http.get(
                    withQuery(container, "resource_link_id=" + URLEncoder.encode(link.id(), StandardCharsets.UTF_8)),
                    Map.of("Authorization", "Bearer " + token, "Accept", CONTAINER_TYPE));
            if (found.status() == 200) {
                for (JsonNode item : json.readTree(found.body())) {
                    JsonNode id = item.get("id");
                    JsonNode resourceId = item.get("resourceId");
                    if (id != null
                            && id.isString()
                            && (resourceId == null
                                    || resourceId.isNull()
                                    || resourceId
                                            .asString()
                                            .equals(homework.id().value().toString()))) {
                        return id.asString();
                    }
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
                throw new PlatformUnavailable("the line items container answered " + made.status() + ": "
                        + PlatformTokens.abbreviated(made.body()));
            }
            JsonNode id = json.readTree(made.body()).get("id");
            if (id == null || !id.isString()) {
                throw new PlatformUnavailable("the line item made has no id");
            }
            return id.asString();
        } catch (IOException | RuntimeException e) {
            if (e instanceof PlatformUnavailable unavailable) {
                throw unavailable;
            }
            throw new PlatformUnavailable(String.valueOf(e.getMessage()));
        }
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
