package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.EmulatedPlatform.Endpoint;
import com.chatreview.lti.platform.Fault;
import com.chatreview.lti.platform.HtmlForm;
import com.chatreview.lti.platform.Launch;
import com.chatreview.lti.platform.LineItem;
import com.chatreview.lti.platform.Member;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.lti.platform.Score;
import com.chatreview.support.Api;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The LMS integration from end to end, as docs/lti.md tells it: the platform registers the tool from a tenant's link,
 * a teacher adds a homework to a course by deep linking, a learner launches, hands in and is reviewed, and the
 * course's gradebook holds the score once, through the platform's faults.
 */
@IntegrationTest
class LtiEndToEndIntegrationTests {

    @Test
    void registeredInOneStepLinkedByTheTeacherHandedInReviewedAndGradedOnce(TestService service) throws Exception {
        try (EmulatedPlatform platform = new EmulatedPlatform()) {
            TestTenant school = service.newTenant("lti-end-to-end");
            Api.Reply link = school.chats().post("/api/v1/lti/platforms/registration-links", "");
            EmulatedPlatform.Tool tool = Objects.requireNonNull(
                    platform.registerDynamically(link.json().get("url").asString())
                            .tool());
            String homeworkId = school.publishHomework("end-to-end");
            Course course = platform.course("E2E 1", "From end to end");

            Member teacher = course.instructor("Grace", "Hopper");
            HttpResponse<String> picker =
                    platform.deepLinking(tool, course, teacher).run().page();
            HttpResponse<String> answer =
                    Launch.post(HtmlForm.with(picker.body(), picker.uri(), "homework_id", homeworkId));
            assertThat(Launch.post(HtmlForm.in(answer.body(), answer.uri())).statusCode())
                    .isEqualTo(200);
            ResourceLink placed =
                    platform.deepLinkingReturns().getLast().links().getFirst();
            LineItem column = Objects.requireNonNull(placed.lineItem());

            platform.inject(Endpoint.SCORES, Fault.status(503), Fault.expiredToken(), Fault.status(500));
            Member learner = course.learner("Ada", "Lovelace");
            new LearnerInTheLms(platform, tool, course).handIn(learner, placed, "From end to end.");

            Score score = Eventually.value(
                    Duration.ofSeconds(60), () -> column.gradeOf(learner).orElse(null));
            assertThat(score.scoreMaximum()).isEqualTo(column.scoreMaximum());
            assertThat(score.gradingProgress()).isEqualTo("PendingManual");
            Thread.sleep(1_500);
            assertThat(column.scoresOf(learner)).as("held once").hasSize(1);
        }
    }
}
