package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.HtmlForm;
import com.chatreview.lti.platform.Launch;
import com.chatreview.lti.platform.Member;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.support.Api;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** What a learner does in the LMS with the tool: launch a link to its homework page, hand in from that page. */
record LearnerInTheLms(EmulatedPlatform platform, EmulatedPlatform.Tool tool, Course course) {

    /** The homework page the learner's launch of the link opens (the launch's redirect, followed). */
    HttpResponse<String> homeworkPage(Member learner, ResourceLink link) {
        HttpResponse<String> launched =
                platform.launch(tool, course, learner, link).run().page();
        assertThat(launched.statusCode()).as(launched.body()).isEqualTo(303);
        return Launch.send(HttpRequest.newBuilder(URI.create(tool.launchUrl())
                        .resolve(launched.headers().firstValue("Location").orElseThrow()))
                .GET());
    }

    /** Hands in a text answer from the page a launch of the link opens; the submission's id. */
    String handIn(Member learner, ResourceLink link, String text) {
        HttpResponse<String> handedIn =
                handIn(homeworkPage(learner, link), new Api.Multipart().file("answer.md", text));
        assertThat(handedIn.statusCode()).as(handedIn.body()).isEqualTo(303);
        String location = handedIn.headers().firstValue("Location").orElseThrow();
        return location.substring(location.indexOf("uploaded=") + "uploaded=".length());
    }

    /** Posts the page's hand-in form with these files; the tool's answer. */
    static HttpResponse<String> handIn(HttpResponse<String> page, Api.Multipart files) {
        HtmlForm form = handInForm(page);
        Api.Multipart body = files.field("hand_in", form.field("hand_in"));
        return Launch.send(HttpRequest.newBuilder(form.action())
                .header("Content-Type", body.contentType())
                .POST(body.publisher()));
    }

    /** The page's hand-in form. */
    static HtmlForm handInForm(HttpResponse<String> page) {
        return HtmlForm.all(page.body(), page.uri()).stream()
                .filter(candidate -> candidate.action().getPath().equals("/lti/homework/submissions"))
                .findFirst()
                .orElseThrow();
    }
}
