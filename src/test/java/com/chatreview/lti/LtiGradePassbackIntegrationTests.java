package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.grades.ScoreDelivery;
import com.chatreview.lti.keys.PlatformHttp;
import com.chatreview.lti.keys.PlatformTokens;
import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.EmulatedPlatform.Endpoint;
import com.chatreview.lti.platform.Fault;
import com.chatreview.lti.platform.LineItem;
import com.chatreview.lti.platform.Member;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.lti.platform.Score;
import com.chatreview.lti.platforms.Platforms;
import com.chatreview.outbound.OutboxWorker;
import com.chatreview.support.Api;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.Records;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A learner's reviewed submission, and the teacher's decision, reach the LMS gradebook as scores (docs/lti.md,
 * Grades): exactly once per state, in order, through the platform's faults (5xx, an expired token, an answer too
 * slow to wait for).
 */
@IntegrationTest
class LtiGradePassbackIntegrationTests {

    /** Longer than the tests' service waits for a platform's answer (lti.platform-timeout, 5 s). */
    static final Duration PAST_THE_TIMEOUT = Duration.ofSeconds(6);

    private static EmulatedPlatform platform;
    private static TestTenant school;
    private static EmulatedPlatform.Tool tool;
    private static Course course;
    private static ResourceLink essay;
    private static String homeworkId;
    private static int rubricPoints;
    private static String platformId;
    private static JdbcClient database;

    @BeforeAll
    static void aGradedLinkInACourse(TestService service, @Autowired JdbcClient jdbc) throws IOException {
        database = jdbc;
        RegisteredTool registered = RegisteredTool.in(service, "lti-grades");
        platform = registered.platform();
        tool = registered.tool();
        school = registered.school();
        platformId = registered.platformId();
        homeworkId = school.publishHomework("graded-essay");
        rubricPoints = school.homework()
                .get("/v1/homeworks/" + homeworkId)
                .json()
                .get("rubric")
                .get("criteria")
                .valueStream()
                .mapToInt(criterion -> criterion.get("maxPoints").asInt())
                .sum();
        course = platform.course("LIT 3", "Literature");
        essay = course.place("The essay", Map.of("homework_id", homeworkId), (double) rubricPoints);
    }

    @AfterAll
    static void close() {
        platform.close();
    }

    @Test
    void theReviewThenTheTeachersDecisionReachTheGradebookOnceEach() {
        Member ada = course.learner("Ada", "Lovelace");
        String submission = handIn(ada, "An essay.");
        int points = reviewedPoints(submission);

        Score reviewed = Eventually.value(
                Eventually.PATIENCE, () -> lineItem().gradeOf(ada).orElse(null));
        assertThat(reviewed.scoreGiven()).isEqualTo((double) points);
        assertThat(reviewed.scoreMaximum()).isEqualTo((double) rubricPoints);
        assertThat(reviewed.activityProgress()).isEqualTo("Submitted");
        assertThat(reviewed.gradingProgress()).isEqualTo("PendingManual");

        decide(submission, "approved");

        Eventually.until(Eventually.PATIENCE, () -> lineItem().scoresOf(ada).size() == 2);
        Score decided = lineItem().scoresOf(ada).getLast();
        assertThat(decided.activityProgress()).isEqualTo("Completed");
        assertThat(decided.gradingProgress()).isEqualTo("FullyGraded");
        assertThat(decided.scoreGiven()).isEqualTo((double) points);
        assertThat(decided.timestamp()).isAfter(reviewed.timestamp());
        nothingOnItsWay(database);
        assertThat(lineItem().scoresOf(ada)).as("once per state").hasSize(2);
    }

    @Test
    void theGradebookGetsTheTeachersPointsWhereTheyGaveSome() {
        Member lin = course.learner("Lin", "Chen");
        String submission = handIn(lin, "An essay.");
        var reviewed = reviewOf(submission);
        int points = pointsOf(reviewed);
        Eventually.value(Eventually.PATIENCE, () -> lineItem().gradeOf(lin).orElse(null));
        var first = reviewed.get("criteria").get(0);
        int given = first.get("points").asInt() == first.get("maxPoints").asInt()
                ? 0
                : first.get("maxPoints").asInt();

        Api.Reply decided = school.homework()
                .patch(
                        "/v1/homeworks/" + homeworkId + "/submissions/" + submission,
                        "{\"status\": \"approved\", \"comment\": \"See me.\", \"criteria\": [{\"criterionId\": \""
                                + first.get("criterionId").asString() + "\", \"points\": " + given + "}]}");
        assertThat(decided.status()).as(decided.toString()).isEqualTo(200);

        Eventually.until(Eventually.PATIENCE, () -> lineItem().scoresOf(lin).size() == 2);
        Score final_ = lineItem().scoresOf(lin).getLast();
        int expected = points - first.get("points").asInt() + given;
        assertThat(final_.scoreGiven()).isEqualTo((double) expected);
        assertThat(final_.gradingProgress()).isEqualTo("FullyGraded");
        assertThat(final_.comment())
                .isEqualTo("Grade " + decided.json().get("grade").asString() + ", approved by the teacher: See me.");
        assertThat(decided.json().get("grade").asString())
                .isEqualTo(com.chatreview.grading.Grades.letter(expected, rubricPoints));
    }

    @Test
    void eachDecisionIsSentEvenOneMadeBefore() {
        Member ivy = course.learner("Ivy", "Compton");
        String slowly = "decided-first-" + UUID.randomUUID();
        String submission = handIn(ivy, "An essay. [[slow-review:" + slowly + "]]");

        decide(submission, "approved");
        Score beforeTheReview = Eventually.value(
                Eventually.PATIENCE, () -> lineItem().gradeOf(ivy).orElse(null));
        assertThat(beforeTheReview.activityProgress()).isEqualTo("Completed");
        assertThat(beforeTheReview.gradingProgress()).isEqualTo("Pending");
        assertThat(beforeTheReview.scoreGiven())
                .as("no points before the review")
                .isNull();
        SharedTestConfiguration.HURRIED_REVIEWS.add(slowly);
        int points = reviewedOrDecidedPoints(submission);
        Eventually.until(Eventually.PATIENCE, () -> lineItem().scoresOf(ivy).size() == 2);
        Score reviewed = lineItem().scoresOf(ivy).getLast();
        assertThat(reviewed.gradingProgress()).isEqualTo("FullyGraded");
        assertThat(reviewed.scoreGiven()).isEqualTo((double) points);

        decide(submission, "needs_revision");
        decide(submission, "approved");

        Eventually.until(Eventually.PATIENCE, () -> lineItem().scoresOf(ivy).size() == 4);
        assertThat(lineItem().scoresOf(ivy).getLast().comment()).contains("approved by the teacher");
        nothingOnItsWay(database);
        assertThat(lineItem().scoresOf(ivy)).as("once per decision").hasSize(4);
    }

    @Test
    void aScoreGetsThroughTheFaultsOfThePlatformOnce(@Autowired JdbcClient jdbc) {
        nothingOnItsWay(jdbc);
        Member bo = course.learner("Bo", "Diddley");
        int tokensBefore = platform.exchanges(Endpoint.TOKEN).size();
        platform.inject(
                Endpoint.SCORES,
                Fault.status(503),
                Fault.expiredToken(),
                Fault.slow(PAST_THE_TIMEOUT),
                Fault.status(502));

        String submission = handIn(bo, "Through the faults.");
        reviewedPoints(submission);

        Score arrived = Eventually.value(
                Duration.ofSeconds(60), () -> lineItem().gradeOf(bo).orElse(null));
        assertThat(arrived.gradingProgress()).isEqualTo("PendingManual");
        nothingOnItsWay(database);
        assertThat(lineItem().scoresOf(bo)).as("accepted once").hasSize(1);
        assertThat(platform.exchanges(Endpoint.TOKEN).size() - tokensBefore)
                .as("a fresh token after the expired one")
                .isGreaterThanOrEqualTo(1);
        long tries = platform.exchanges(Endpoint.SCORES).stream()
                .filter(exchange -> exchange.body().contains(bo.sub()))
                .count();
        assertThat(tries).as("the score's sends: four faults, then taken").isGreaterThanOrEqualTo(5);
    }

    @Test
    void aTokenEndpointThatRefusesIsAskedAgainAndTheScoreArrives(@Autowired JdbcClient jdbc) {
        nothingOnItsWay(jdbc);
        Member ray = course.learner("Ray", "Charles");
        int tokensBefore = platform.exchanges(Endpoint.TOKEN).size();
        // the cached token refused, then the token endpoint refuses twice (a bad request, then unauthorized)
        platform.inject(Endpoint.SCORES, Fault.expiredToken());
        platform.inject(Endpoint.TOKEN, Fault.status(400), Fault.status(401));

        reviewedPoints(handIn(ray, "Through a refusing token endpoint."));

        Score arrived = Eventually.value(
                Duration.ofSeconds(60), () -> lineItem().gradeOf(ray).orElse(null));
        assertThat(arrived.gradingProgress()).isEqualTo("PendingManual");
        nothingOnItsWay(database);
        assertThat(lineItem().scoresOf(ray)).as("accepted once").hasSize(1);
        List<Integer> tokenAnswers = platform.exchanges(Endpoint.TOKEN).stream()
                .skip(tokensBefore)
                .map(EmulatedPlatform.Exchange::status)
                .toList();
        assertThat(tokenAnswers).as("asked again after each refusal").containsSubsequence(400, 401, 200);
    }

    @Test
    void aGivenUpScoreIsListedAndSentAgainUnlessALaterOneOfItsLineWasDelivered(
            @Autowired JdbcClient jdbc, TestService service) {
        String scores = "/api/v1/lti/platforms/" + platformId + "/scores";
        nothingOnItsWay(jdbc);
        Member lu = course.learner("Lu", "Xun");
        platform.inject(Endpoint.SCORES, Fault.status(400));
        reviewedPoints(handIn(lu, "Refused at first."));

        Eventually.until(Eventually.PATIENCE, () -> givenUp(jdbc) == 1);
        var listed = school.chats().get(scores).json();
        assertThat(listed.get("given_up").asLong()).isEqualTo(1);
        assertThat(listed.get("to_send").asLong()).isZero();
        assertThat(listed.get("scores").get(0).get("last_error").asString())
                .contains("400")
                .as("the platform's body is never repeated")
                .doesNotContain("injected fault");
        assertThat(listed.get("scores").get(0).get("user_id").asString()).endsWith(lu.sub());
        assertThat(service.newTenant("lti-scores-other").chats().get(scores).status())
                .as("another tenant's platform")
                .isEqualTo(404);
        Api.Reply resent = school.chats().post(scores + "/resend", "");
        assertThat(resent.status()).as(resent.toString()).isEqualTo(200);
        assertThat(resent.json().get("resent").asInt()).isEqualTo(1);
        assertThat(resent.json().get("superseded").asInt()).isZero();
        Eventually.until(Eventually.PATIENCE, () -> lineItem().gradeOf(lu).isPresent());
        assertThat(school.chats().get(scores).json().get("given_up").asLong()).isZero();

        Member kim = course.learner("Kim", "Gordon");
        platform.inject(Endpoint.SCORES, Fault.status(400));
        String submission = handIn(kim, "Refused, then decided.");
        reviewedPoints(submission);
        Eventually.until(Eventually.PATIENCE, () -> givenUp(jdbc) == 1);
        decide(submission, "approved");
        Eventually.until(Eventually.PATIENCE, () -> lineItem().gradeOf(kim).isPresent());
        Api.Reply notResent = school.chats().post(scores + "/resend", "");
        assertThat(notResent.json().get("resent").asInt())
                .as("the review's score is older than the decision's")
                .isZero();
        assertThat(notResent.json().get("superseded").asInt()).isEqualTo(1);
        nothingOnItsWay(database);
        assertThat(lineItem().scoresOf(kim)).hasSize(1);
        assertThat(lineItem().gradeOf(kim).orElseThrow().gradingProgress()).isEqualTo("FullyGraded");
    }

    @Test
    void aPlatformThatStallsHoldsUpOnlyItsOwnScores(
            TestService service, @Autowired JdbcClient jdbc, @Autowired OutboxWorker<ScoreDelivery.Due> scores)
            throws IOException {
        nothingOnItsWay(jdbc);
        List<Member> stalled = IntStream.range(0, ScoreDelivery.IN_FLIGHT_PER_PLATFORM)
                .mapToObj(i -> course.learner("Stalled", "No. " + i))
                .toList();
        int arrived = platform.arrivals(Endpoint.SCORES);
        // answers later than the tool waits: each send of these ends in a timeout, 5 s on
        platform.inject(
                Endpoint.SCORES,
                stalled.stream().map(learner -> Fault.slow(PAST_THE_TIMEOUT)).toArray(Fault[]::new));
        stalled.forEach(learner -> writeScore(jdbc, learner));
        scores.wake();
        Eventually.until(Eventually.PATIENCE, () -> platform.arrivals(Endpoint.SCORES) >= arrived + 4);

        RegisteredTool other = RegisteredTool.in(service, "lti-grades-other");
        try {
            Course elsewhere = other.platform().course("ART 1", "Elsewhere");
            ResourceLink link = elsewhere.place(
                    "Drawing", Map.of("homework_id", other.school().publishHomework("drawing")), 10.0);
            Member learner = elsewhere.learner("Mo", "Willems");
            new LearnerInTheLms(other.platform(), other.tool(), elsewhere).handIn(learner, link, "Not held up.");

            Eventually.until(
                    Duration.ofSeconds(8),
                    () -> Objects.requireNonNull(link.lineItem())
                            .gradeOf(learner)
                            .isPresent());
        } finally {
            other.platform().close();
        }
        // the stalled ones get through once their sends time out and are sent again
        for (Member learner : stalled) {
            Eventually.until(
                    Duration.ofSeconds(60), () -> lineItem().gradeOf(learner).isPresent());
        }
    }

    @Test
    void scoresSettledLongerAgoThanTheRetentionAreDeleted(
            @Autowired JdbcClient jdbc,
            @Autowired Platforms platforms,
            @Autowired PlatformTokens tokens,
            @Autowired PlatformHttp http,
            @Autowired LtiSettings settings) {
        Map<String, String> settledAt =
                Map.of("delivered_at", "31 days", "given_up_at", "31 days", "delivered_at ", "29 days");
        Map<String, UUID> rows = new java.util.HashMap<>();
        settledAt.forEach((column, ago) -> {
            UUID submission = UUID.randomUUID();
            rows.put(column + ago, submission);
            jdbc.sql("INSERT INTO lti_scores (submission_id, state, line_item_url, platform_id, tenant_id, user_id,"
                            + " score, created_at, next_attempt_at, " + column.strip() + ")"
                            + " VALUES (:submission, 'reviewed/1/0', 'https://lms.example/li', :platform::uuid,"
                            + " :tenant, 'lti:x', '{}'::jsonb, now(), now(), now() - interval '" + ago + "')")
                    .param("submission", submission)
                    .param("platform", platformId)
                    .param("tenant", school.uuid())
                    .update();
        });

        new ScoreDelivery(jdbc, platforms, tokens, http, settings).purgeSettled();

        List<UUID> left = jdbc.sql("SELECT submission_id FROM lti_scores WHERE submission_id IN (:ids)")
                .param("ids", rows.values())
                .query((rs, row) -> rs.getObject(1, UUID.class))
                .list();
        assertThat(left).as("kept %s", settings.scoreRetention()).containsExactly(rows.get("delivered_at 29 days"));
    }

    @Test
    void aScoreTakenWithALongAnswerIsDeliveredOnce(@Autowired JdbcClient jdbc) {
        nothingOnItsWay(jdbc);
        Member jo = course.learner("Jo", "March");
        platform.inject(Endpoint.SCORES, Fault.longAnswer(PlatformHttp.MAX_ANSWER + 64 * 1024));

        String submission = handIn(jo, "Answered at length.");
        reviewedPoints(submission);

        Eventually.until(Eventually.PATIENCE, () -> lineItem().gradeOf(jo).isPresent());
        nothingOnItsWay(database);
        long sends = platform.exchanges(Endpoint.SCORES).stream()
                .filter(exchange -> exchange.body().contains(jo.sub()))
                .count();
        assertThat(sends).as("sent once: the long answer took it").isEqualTo(1);
    }

    @Test
    void scoresSlowerToSendThanALeaseLastsAreEachSentOnce(
            @Autowired JdbcClient jdbc,
            @Autowired Platforms platforms,
            @Autowired PlatformTokens tokens,
            @Autowired PlatformHttp http,
            @Autowired LtiSettings settings) {
        nothingOnItsWay(jdbc);
        List<Member> learners = IntStream.range(0, 6)
                .mapToObj(i -> course.learner("Slow", "No. " + i))
                .toList();
        platform.inject(
                Endpoint.SCORES,
                learners.stream()
                        .map(learner -> Fault.slow(Duration.ofMillis(1_200)))
                        .toArray(Fault[]::new));
        // two more nodes, whose leases end before two of these sends are done
        LtiSettings shortLeases = Records.with(settings, "scoreLease", Duration.ofSeconds(2));
        List<OutboxWorker<ScoreDelivery.Due>> nodes = List.of(
                new ScoreDelivery(jdbc, platforms, tokens, http, shortLeases).worker(),
                new ScoreDelivery(jdbc, platforms, tokens, http, shortLeases).worker());
        learners.forEach(learner -> writeScore(jdbc, learner));
        nodes.forEach(OutboxWorker::start);
        try {
            for (Member learner : learners) {
                Eventually.until(
                        Duration.ofSeconds(30),
                        () -> lineItem().gradeOf(learner).isPresent());
            }
            nothingOnItsWay(database);
        } finally {
            nodes.forEach(OutboxWorker::stop);
        }
        for (Member learner : learners) {
            long sends = platform.exchanges(Endpoint.SCORES).stream()
                    .filter(exchange -> exchange.body().contains(learner.sub()))
                    .count();
            assertThat(sends).as("%s's score's sends", learner.sub()).isEqualTo(1);
        }
    }

    @Test
    void aLinkSetUpByHandGetsOneColumnMadeByTheToolWhichHoldsTheScores() {
        ResourceLink byHand = course.place("Set up by hand", Map.of("homework_id", homeworkId), null);
        int columns = course.lineItems().size();
        Member cy = course.learner("Cy", "Twombly");
        Member di = course.learner("Di", "Fossey");

        String submission = handIn(cy, byHand, "By hand.");
        handIn(di, byHand, "By hand too.");
        int points = reviewedPoints(submission);

        assertThat(course.lineItems()).as("one column made for the link").hasSize(columns + 1);
        LineItem made = course.lineItems().getLast();
        assertThat(made.scoreMaximum()).isEqualTo((double) rubricPoints);
        assertThat(made.resourceId()).isEqualTo(homeworkId);
        assertThat(made.resourceLinkId()).isEqualTo(byHand.id());
        Score arrived =
                Eventually.value(Eventually.PATIENCE, () -> made.gradeOf(cy).orElse(null));
        assertThat(arrived.scoreGiven()).isEqualTo((double) points);
    }

    @Test
    void aLinksColumnOnTheContainersSecondPageIsFoundNotMadeAgain(@Autowired JdbcClient jdbc) {
        ResourceLink paged = course.place("Paged", Map.of("homework_id", homeworkId), null);
        for (int i = 0; i < 10; i++) {
            course.addLineItem("Another tool's " + i, 10, "other-" + i, null, paged.id());
        }
        LineItem ours = course.addLineItem("Ours", rubricPoints, homeworkId, "homework-review", paged.id());
        int columns = course.lineItems().size();

        launch(course.learner("Ed", "Sheeran"), paged);

        assertThat(course.lineItems()).as("no column made").hasSize(columns);
        assertThat(columnKeptFor(jdbc, paged)).isEqualTo(ours.id());
    }

    @Test
    void aContainerThatFailsGetsNoColumnMadeAndIsAskedAgainOnlyAfterAWhile(@Autowired JdbcClient jdbc) {
        ResourceLink failing = course.place("Failing", Map.of("homework_id", homeworkId), null);
        int columns = course.lineItems().size();
        platform.inject(Endpoint.LINE_ITEMS, Fault.status(500));

        launch(course.learner("Fay", "Wray"), failing);
        int asked = platform.exchanges(Endpoint.LINE_ITEMS).size();
        launch(course.learner("Gil", "Evans"), failing);

        assertThat(course.lineItems())
                .as("no column made without knowing the link's")
                .hasSize(columns);
        assertThat(platform.exchanges(Endpoint.LINE_ITEMS))
                .as("not asked again at once")
                .hasSize(asked);
        assertThat(jdbc.sql("""
                        SELECT last_error FROM lti_link_line_items
                        WHERE platform_id = :platform::uuid AND resource_link_id = :link""")
                        .param("platform", platformId)
                        .param("link", failing.id())
                        .query(String.class)
                        .single())
                .contains("500")
                .as("the platform's body is never repeated")
                .doesNotContain("injected fault");
    }

    @Test
    void aSlowContainerIsAskedWithNoTransactionOpen(@Autowired JdbcClient jdbc) throws Exception {
        ResourceLink slow = course.place("Slow", Map.of("homework_id", homeworkId), null);
        int columns = course.lineItems().size();
        platform.inject(Endpoint.LINE_ITEMS, Fault.slow(Duration.ofSeconds(3)));

        OpenTransactions.Watched<Object> watched = OpenTransactions.whileRunning(jdbc, () -> {
            launch(course.learner("Hal", "Foster"), slow);
            return "launched";
        });

        assertThat(watched.longestIdle())
                .as("the longest a transaction sat idle while the platform took its time")
                .isLessThan(Duration.ofSeconds(1));
        assertThat(course.lineItems()).hasSize(columns + 1);
        assertThat(columnKeptFor(jdbc, slow))
                .isEqualTo(course.lineItems().getLast().id());
    }

    private static @org.jspecify.annotations.Nullable String columnKeptFor(JdbcClient jdbc, ResourceLink link) {
        return jdbc.sql("""
                        SELECT line_item_url FROM lti_link_line_items
                        WHERE platform_id = :platform::uuid AND resource_link_id = :link""")
                .param("platform", platformId)
                .param("link", link.id())
                .query(String.class)
                .optional()
                .orElse(null);
    }

    private static void launch(Member learner, ResourceLink link) {
        HttpResponse<String> launched =
                platform.launch(tool, course, learner, link).run().page();
        assertThat(launched.statusCode()).as(launched.body()).isEqualTo(303);
    }

    private LineItem lineItem() {
        return Objects.requireNonNull(essay.lineItem());
    }

    /** Hands in from the homework page a launch of the link opens; the submission's id. */
    private static String handIn(Member learner, String text) {
        return handIn(learner, essay, text);
    }

    private static String handIn(Member learner, ResourceLink link, String text) {
        return new LearnerInTheLms(platform, tool, course).handIn(learner, link, text);
    }

    /** Waits for the review; the points it gave. */
    private static int reviewedPoints(String submission) {
        var reviewed = reviewOf(submission);
        assertThat(reviewed.get("status").asString()).isEqualTo("reviewed");
        return pointsOf(reviewed);
    }

    /**
     * Waits for the review (watching the database: polling the API would use up the tenant's requests of the
     * minute), then reads the submission.
     */
    private static tools.jackson.databind.JsonNode reviewOf(String submission) {
        Eventually.until(
                Eventually.PATIENCE,
                () -> database.sql("SELECT review_state = 'done' FROM submissions WHERE id = :id::uuid")
                        .param("id", submission)
                        .query(Boolean.class)
                        .single());
        return school.homework()
                .get("/v1/homeworks/" + homeworkId + "/submissions/" + submission)
                .json();
    }

    private static int pointsOf(tools.jackson.databind.JsonNode submission) {
        return submission
                .get("criteria")
                .valueStream()
                .mapToInt(criterion -> criterion.get("points").asInt())
                .sum();
    }

    /** Waits for the review of a submission the teacher decided on already; the points it gave. */
    private static int reviewedOrDecidedPoints(String submission) {
        return pointsOf(reviewOf(submission));
    }

    private static void decide(String submission, String status) {
        Api.Reply decided = school.homework()
                .patch(
                        "/v1/homeworks/" + homeworkId + "/submissions/" + submission,
                        "{\"status\": \"" + status + "\", \"teacherId\": \"t-1\"}");
        assertThat(decided.status()).as(decided.toString()).isEqualTo(200);
    }

    /** A score of the learner's in the outbox, to send now, as a review writes one. */
    private static void writeScore(JdbcClient jdbc, Member learner) {
        jdbc.sql("""
                        INSERT INTO lti_scores (submission_id, state, line_item_url, platform_id, tenant_id,
                                                user_id, score, created_at, next_attempt_at)
                        VALUES (gen_random_uuid(), 'reviewed/1/0', :lineItem, :platform::uuid, :tenant,
                                :user, :score::jsonb, now(), now())""")
                .param("lineItem", Objects.requireNonNull(essay.lineItem()).id())
                .param("platform", platformId)
                .param("tenant", school.uuid())
                .param("user", LtiPlatform.STUDENT_PREFIX + platformId + ":" + learner.sub())
                .param(
                        "score",
                        Api.JSON.writeValueAsString(Map.of(
                                "userId",
                                learner.sub(),
                                "scoreGiven",
                                1,
                                "scoreMaximum",
                                rubricPoints,
                                "activityProgress",
                                "Submitted",
                                "gradingProgress",
                                "PendingManual",
                                "timestamp",
                                Instant.now().toString())))
                .update();
    }

    private static long givenUp(JdbcClient jdbc) {
        return jdbc.sql("SELECT count(*) FROM lti_scores WHERE tenant_id = :tenant AND given_up_at IS NOT NULL")
                .param("tenant", school.uuid())
                .query(Long.class)
                .single();
    }

    /**
     * Every review of the school is done and every score of it delivered or given up: nothing more can be sent. So a
     * count of what the platform received is final (a fixed quiet period instead would pass under load whether or not
     * a second send was on its way), and a test's faults, the platform's next answers to any score, meet its own
     * scores alone.
     */
    private static void nothingOnItsWay(JdbcClient jdbc) {
        Eventually.until(
                Eventually.PATIENCE,
                () -> jdbc.sql("""
                        SELECT (SELECT count(*) FROM submissions WHERE tenant_id = :tenant AND review_state <> 'done')
                             + (SELECT count(*) FROM lti_scores WHERE tenant_id = :tenant AND delivered_at IS NULL
                                                                  AND given_up_at IS NULL)""")
                                .param("tenant", school.uuid())
                                .query(Long.class)
                                .single()
                        == 0);
    }
}
