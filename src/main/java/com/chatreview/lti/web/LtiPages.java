package com.chatreview.lti.web;

import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.LtiLaunch;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.util.HtmlUtils;

/**
 * The tool's pages, shown in the LMS's iframe: small, server-rendered HTML with every value escaped, no script, a
 * stylesheet of the service's own; never a stack trace. The LMS that frames them is any site (a school's LMS
 * domain is not the issuer's), so {@code frame-ancestors} is open; nothing on these pages acts for the user
 * without a form they submit.
 */
final class LtiPages {

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);
    private static final String POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:;"
            + " base-uri 'none'; form-action 'self'; object-src 'none'; frame-ancestors *";

    private LtiPages() {}

    static ResponseEntity<String> refused(LaunchRefused refused) {
        HttpStatus status = switch (refused.kind()) {
            case REFUSED -> HttpStatus.BAD_REQUEST;
            case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
            case TOO_MANY -> HttpStatus.TOO_MANY_REQUESTS;
        };
        String title = refused.kind() == LaunchRefused.Kind.REFUSED
                ? "The tool could not be opened"
                : "The tool is not available right now";
        ResponseEntity<String> page = page(status, title, "<p class=\"reason\">" + escape(refused.reason()) + "</p>");
        if (refused.retryAfter().isPositive()) {
            return ResponseEntity.status(page.getStatusCode())
                    .headers(page.getHeaders())
                    .header(
                            "Retry-After",
                            Long.toString(Math.max(1, refused.retryAfter().toSeconds())))
                    .body(page.getBody());
        }
        return page;
    }

    /**
     * The verified launch: who is signed in, from which course, and what the placement opens.
     */
    static ResponseEntity<String> launched(LtiLaunch launch) {
        StringBuilder body = new StringBuilder();
        body.append("<p>You are signed in as <strong>")
                .append(escape(launch.name() == null ? launch.sub() : launch.name()))
                .append("</strong>, ")
                .append(launch.teaches() ? "teaching" : "a learner")
                .append(
                        launch.context() == null
                                ? ""
                                : " in <strong>" + escape(courseOf(launch.context())) + "</strong>")
                .append(".</p>");
        String homework = launch.custom().get("homework_id");
        if (launch.deepLinkingRequest()) {
            body.append("<p>Your LMS asked the tool for content to add to the course. Choosing a homework here is not"
                    + " offered yet: add the tool by hand with the custom parameter <code>homework_id</code>.</p>");
        } else if (homework != null) {
            body.append("<p>This link opens homework <code>")
                    .append(escape(homework))
                    .append("</code>. Its page in the LMS is not offered yet: your teacher shares its chat links.</p>");
        } else {
            body.append("<p>This link names no homework: your teacher sets the custom parameter <code>homework_id"
                    + "</code> on it, or adds it through the tool's content selection.</p>");
        }
        String title = launch.resourceLink() != null && launch.resourceLink().title() != null
                ? launch.resourceLink().title()
                : "Homework review";
        return page(HttpStatus.OK, title, body.toString());
    }

    private static String courseOf(LtiLaunch.Context context) {
        if (context.title() != null) {
            return context.title();
        }
        return context.label() != null ? context.label() : context.id();
    }

    private static ResponseEntity<String> page(HttpStatus status, String title, String content) {
        String html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + escape(title) + "</title><link rel=\"stylesheet\" href=\"/lti/page.css\"></head>"
                + "<body><main><h1>" + escape(title) + "</h1>" + content + "</main></body></html>";
        return ResponseEntity.status(status)
                .contentType(HTML)
                .cacheControl(CacheControl.noStore())
                .header("Content-Security-Policy", POLICY)
                .header("Referrer-Policy", "no-referrer")
                .header("X-Content-Type-Options", "nosniff")
                .body(html);
    }

    static String escape(@Nullable String text) {
        return text == null ? "" : HtmlUtils.htmlEscape(text, StandardCharsets.UTF_8.name());
    }
}
