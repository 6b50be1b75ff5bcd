package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.EmulatedPlatform.Endpoint;
import com.chatreview.lti.platform.Fault;
import com.chatreview.lti.platform.LineItem;
import com.chatreview.lti.platform.Member;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.support.Api;
import com.chatreview.support.Cluster;
import com.chatreview.support.Eventually;
import com.chatreview.support.RequiresCluster;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Grade passback on two nodes behind nginx (docs/lti.md, Grades): learners launch, hand in and are reviewed through
 * either node, and each score reaches the gradebook once; a score being sent when both nodes are killed ({@code kill
 * -9}) is sent again after they start, and the platform holds it once.
 */
@Tag("cluster")
@ExtendWith(RequiresCluster.class)
class LtiGradesClusterTests {

    static final Duration WAIT = Duration.ofSeconds(60);

    static Cluster cluster;
    static EmulatedPlatform platform;
    static EmulatedPlatform.Tool tool;
    static Api homework;
    static Course course;
    static ResourceLink essay;
    /** The tenant's client, and the path of the platform's scores not in its gradebook yet. */
    static Api tenant;

    static String undeliveredScores;

    @BeforeAll
    static void start() throws Exception {
        cluster = Cluster.shared();
        platform = new EmulatedPlatform();
        String base = "http://127.0.0.1:" + cluster.port();
        EmulatedPlatform.Tool unkeyed = platform.register(base + "/lti/login", base + "/lti/launch", "unknown-yet");
        String key = cluster.newTenant("lti-grades");
        Api.Reply registered = cluster.api()
                .with("X-API-Key", key)
                .post("/api/v1/lti/platforms", Api.JSON.writeValueAsString(platform.registrationFor(unkeyed)));
        assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
        tenant = cluster.api().with("X-API-Key", key);
        undeliveredScores =
                "/api/v1/lti/platforms/" + registered.json().get("id").asString() + "/scores";
        tool = platform.useJwks(unkeyed, registered.json().get("tool_jwks_url").asString());
        homework = cluster.api().with("x-tenant-api-secret", key);
        String courseId = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Course\"}")
                .json()
                .get("id")
                .asString();
        Api.Reply published = homework.post(
                "/v1/homeworks",
                Api.JSON.writeValueAsString(Map.of(
                        "teacherId",
                        "t-1",
                        "courseId",
                        courseId,
                        "assignmentId",
                        "clustered-essay",
                        "files",
                        List.of(Map.of("fileType", "task", "fileName", "task.md", "content", "Write.")))));
        assertThat(published.status()).as(published.toString()).isEqualTo(201);
        course = platform.course("CL 1", "Clustered");
        essay = course.place(
                "The essay", Map.of("homework_id", published.json().get("id").asString()), 100.0);
    }

    @AfterAll
    static void stop() throws Exception {
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void learnersReviewedThroughEitherNodeAreGradedOnceEach() throws Exception {
        List<Member> learners = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Member learner = course.learner("Learner", "No. " + i);
            learners.add(learner);
            handIn(learner);
        }

        for (Member learner : learners) {
            Eventually.until(WAIT, () -> lineItem().gradeOf(learner).isPresent());
        }
        // the outbox drained: no score of theirs is left to send, so none is sent a second time from here on
        Eventually.until(
                WAIT, () -> tenant.get(undeliveredScores).json().get("to_send").asLong() == 0);
        for (Member learner : learners) {
            assertThat(lineItem().scoresOf(learner))
                    .as("%s's scores", learner.sub())
                    .hasSize(1);
        }
        assertThat(Files.readString(cluster.accessLog()))
                .as("nginx's access log: the pages' session tokens are not in it")
                .contains("GET /lti/homework ", "POST /lti/homework/submissions ")
                .doesNotContain("session=");
    }

    @Test
    void aScoreBeingSentWhenBothNodesAreKilledIsSentAgainAndHeldOnce() throws Exception {
        Member learner = course.learner("Kay", "Killed");
        int arrived = platform.arrivals(Endpoint.SCORES);
        // the send is under way (the platform holds it) when the nodes die
        platform.inject(Endpoint.SCORES, Fault.slow(Duration.ofSeconds(4)));
        handIn(learner);
        Eventually.until(WAIT, () -> platform.arrivals(Endpoint.SCORES) > arrived);

        cluster.node(1).kill();
        cluster.node(2).kill();
        cluster.node(1).start();
        cluster.node(2).start();

        Eventually.until(
                WAIT,
                () -> platform.exchanges(Endpoint.SCORES).stream()
                                .filter(exchange -> exchange.body().contains(learner.sub()))
                                .count()
                        >= 2);
        assertThat(lineItem().scoresOf(learner))
                .as("the score the platform took before the nodes died, sent again (409), held once")
                .hasSize(1);
        assertThat(platform.exchanges(Endpoint.SCORES).stream()
                        .filter(exchange -> exchange.body().contains(learner.sub()))
                        .map(EmulatedPlatform.Exchange::status))
                .contains(409);
    }

    private static LineItem lineItem() {
        return Objects.requireNonNull(essay.lineItem());
    }

    private static void handIn(Member learner) {
        new LearnerInTheLms(platform, tool, course).handIn(learner, essay, "An answer by " + learner.sub());
    }
}
