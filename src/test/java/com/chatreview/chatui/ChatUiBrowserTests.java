package com.chatreview.chatui;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.NewMessage;
import com.chatreview.realtime.LiveConnections;
import com.chatreview.support.Api;
import com.chatreview.support.Browser;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.RequiresChromium;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The chat page in a real headless Chromium against the whole service: what a student sees and does. Screenshots
 * of the page at desktop size and at 320 px go to {@code target/screenshots/}.
 */
@Tag("browser")
@IntegrationTest
@ExtendWith(RequiresChromium.class)
class ChatUiBrowserTests {

    static Browser browser;

    TestService service;

    @Autowired
    ChatManagement chats;

    @Autowired
    ApplicationContext context;

    TestTenant tenant;
    Api api;

    @BeforeAll
    static void startBrowser() {
        browser = Browser.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void newTenant(TestService service) {
        this.service = service;
        tenant = service.newTenant("browser-tests");
        api = tenant.chats();
        browser.size(1280, 800);
    }

    @Test
    void sendsAMessageWatchesTheReplyStreamAndSeesTheHistoryAfterAReload() throws Exception {
        String chatId = createChat("student-1");
        browser.openChat(service.port(), chatId);
        assertThat(browser.find(".empty").getText()).contains("No messages yet");

        browser.type("How do I add 1/2 and 1/3?");
        WebElement reply = browser.awaitReplyDone(1);
        assertThat(reply.getText()).isNotBlank();
        assertThat(userTexts()).containsExactly("How do I add 1/2 and 1/3?");
        String replyText = reply.getText();

        browser.driver().navigate().refresh();
        browser.awaitState("connected");
        assertThat(userTexts()).containsExactly("How do I add 1/2 and 1/3?");
        assertThat(assistantTexts()).containsExactly(replyText);
        assertThat(storedMessages(chatId)).hasSize(2);

        assertThat(requestedOrigins()).allMatch(origin -> origin.equals("http://127.0.0.1:" + service.port()));
        browser.screenshot("chat-desktop");
        browser.size(320, 640);
        browser.await(d -> ((Number) browser.script("return window.innerWidth;")).intValue() <= 320);
        assertThat(((Number) browser.script("return document.documentElement.scrollWidth;")).intValue())
                .as("no sideways scrolling at 320 px")
                .isLessThanOrEqualTo(320);
        assertThat(browser.find("#send").isDisplayed()).isTrue();
        browser.screenshot("chat-320px");
        assertThat(Files.size(Path.of("target", "screenshots", "chat-320px.png")))
                .isPositive();
    }

    @Test
    void aSubmissionsChatIframeUrlShowsItsReviewRenderedAndTakesQuestions() throws Exception {
        Api homework = tenant.homework();
        String courseId = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}")
                .json()
                .get("id")
                .asString();
        String homeworkId = homework.post("/v1/homeworks", """
                        {"teacherId": "t-1", "courseId": "%s", "assignmentId": "add-1",
                         "files": [{"fileType": "task", "fileName": "task.md",
                                    "content": "Write a function `add(a, b)` that returns the sum of a and b."},
                                   {"fileType": "solution", "fileName": "solution.py",
                                    "content": "def add(a, b):\\n    return a + b\\n"},
                                   {"fileType": "restriction", "fileName": "rules.txt",
                                    "content": "Do not use `eval`."}]}""".formatted(courseId))
                .json()
                .get("id")
                .asString();
        Api.Reply uploaded = homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Api.Multipart()
                        .field("studentId", "student-5")
                        .file(
                                "files",
                                "main.py",
                                "text/x-python",
                                "def add(a, b):\n    return eval('a + b')\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(uploaded.status()).as(uploaded.toString()).isEqualTo(201);

        browser.open(uploaded.json().get("chatIframeUrl").asString());
        browser.awaitState("connected");
        WebElement review = browser.awaitReplyDone(1);

        assertThat(userTexts()).singleElement().asString().contains("main.py");
        assertThat(review.getText()).contains("not a language model").contains("eval");
        assertThat(review.findElements(By.cssSelector("h1, h2, h3, h4, strong, li")))
                .as("the review's Markdown is rendered")
                .isNotEmpty();
        browser.await(d -> browser.find("#review").isDisplayed());
        assertReviewPanel();
        browser.screenshot("review-desktop");

        browser.type("Why is eval not allowed?");
        WebElement answer = browser.awaitReplyDone(2);
        assertThat(answer.getText()).contains("rules.txt");

        browser.driver().navigate().refresh();
        browser.awaitState("connected");
        assertReviewPanel();
        browser.size(320, 640);
        browser.await(d -> ((Number) browser.script("return window.innerWidth;")).intValue() <= 320);
        assertThat(((Number) browser.script("return document.documentElement.scrollWidth;")).intValue())
                .as("no sideways scrolling at 320 px")
                .isLessThanOrEqualTo(320);
        browser.screenshot("review-320px");
    }

    @Test
    void theStudentAsksForARegradeOnThePageAndReadsTheTeachersPointsAndAnswer() throws Exception {
        Api homework = tenant.homework();
        String courseId = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}")
                .json()
                .get("id")
                .asString();
        String homeworkId = homework.post("/v1/homeworks", """
                        {"teacherId": "t-1", "courseId": "%s", "assignmentId": "add-2",
                         "files": [{"fileType": "task", "fileName": "task.md", "content": "Write add(a, b)."},
                                   {"fileType": "restriction", "fileName": "rules.txt",
                                    "content": "Do not use `eval`."}]}""".formatted(courseId))
                .json()
                .get("id")
                .asString();
        Api.Reply uploaded = homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Api.Multipart()
                        .field("studentId", "student-6")
                        .file(
                                "files",
                                "main.py",
                                "text/x-python",
                                "def add(a, b):\n    return eval('a + b')\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(uploaded.status()).as(uploaded.toString()).isEqualTo(201);
        String submission = "/v1/homeworks/" + homeworkId + "/submissions/"
                + uploaded.json().get("id").asString();
        browser.open(uploaded.json().get("chatIframeUrl").asString());
        browser.awaitState("connected");
        browser.awaitReplyDone(1);
        browser.await(d -> browser.find("#review").isDisplayed());
        Api.Reply decided = homework.patch(submission, """
                {"status": "approved", "comment": "Good start.",
                 "criteria": [{"criterionId": "correctness", "points": 20, "comment": "It adds, but see the rule."}]}""");
        assertThat(decided.status()).as(decided.toString()).isEqualTo(200);

        browser.driver().navigate().refresh();
        browser.awaitState("connected");
        browser.await(d -> browser.find("#review").isDisplayed());
        assertThat(browser.find("#review-score").getText())
                .isEqualTo("Grade " + decided.json().get("grade").asString() + ", "
                        + decided.json()
                                .get("criteria")
                                .valueStream()
                                .mapToInt(c -> c.get("points").asInt())
                                .sum()
                        + " of 100 points"
                        + (decided.json()
                                        .get("grade")
                                        .asString()
                                        .equals(decided.json().get("aiGrade").asString())
                                ? ""
                                : " (your teacher's; the review gave "
                                        + decided.json().get("aiGrade").asString() + ")"));
        WebElement correctness = browser.find("#review-criteria .criterion[data-graded-by='teacher']");
        assertThat(correctness.findElement(By.cssSelector(".criterion-points")).getText())
                .startsWith("20 / 60, your teacher's (the review: ");
        assertThat(correctness.findElement(By.cssSelector(".teacher-comment")).getText())
                .isEqualTo("Your teacher: It adds, but see the rule.");
        assertThat(browser.find("#review-comment").getText()).isEqualTo("Your teacher: Good start.");

        browser.find("#regrade-form-restrictions-toggle").click();
        WebElement text = browser.find("#regrade-form-restrictions-text");
        assertThat(browser.script("return document.activeElement.id;")).isEqualTo(text.getAttribute("id"));
        text.sendKeys("I never call eval myself.");
        browser.find("#regrade-form-restrictions button[type='submit']").click();

        WebElement open = browser.await(d -> d.findElements(By.cssSelector(".regrade[data-state='open']")).stream()
                .findFirst()
                .orElse(null));
        assertThat(open.getText()).contains("waiting for your teacher").contains("I never call eval myself.");
        assertThat(browser.script("return document.activeElement.className;"))
                .as("the focus moves to the request it sent")
                .isEqualTo("regrade");
        assertThat(browser.driver().findElements(By.id("regrade-form-restrictions-toggle")))
                .as("one open request per criterion")
                .isEmpty();
        String requestId = homework.get(submission)
                .json()
                .get("regradeRequests")
                .get(0)
                .get("id")
                .asString();
        assertThat(homework.patch(
                                submission + "/regrade-requests/" + requestId,
                                "{\"answer\": \"`eval` is still called on line 2.\", \"teacherId\": \"t-1\"}")
                        .status())
                .isEqualTo(200);

        WebElement answer = browser.awaitReplyDone(2);
        assertThat(answer.getText()).contains("Your teacher answered your regrade request");
        WebElement answered =
                browser.await(d -> d.findElements(By.cssSelector(".regrade[data-state='answered']")).stream()
                        .findFirst()
                        .orElse(null));
        assertThat(answered.findElement(By.cssSelector(".regrade-answer-body")).getText())
                .isEqualTo("eval is still called on line 2.");

        browser.size(360, 640);
        browser.await(d -> ((Number) browser.script("return window.innerWidth;")).intValue() <= 360);
        browser.driver().navigate().refresh();
        browser.awaitState("connected");
        browser.await(d -> browser.find("#review").isDisplayed());
        assertThat(browser.script("return document.getElementById('review-details').open;"))
                .as("on a phone the panel starts as its summary line")
                .isEqualTo(false);
        assertThat(((Number) browser.script("""
                        const log = document.getElementById('log');
                        log.scrollTop = 0;
                        return log.firstElementChild.getBoundingClientRect().top
                            - document.getElementById('review').getBoundingClientRect().bottom;""")).doubleValue())
                .as("the first message starts below the panel, nothing under it")
                .isGreaterThanOrEqualTo(0);
        browser.screenshot("regrade-360px");
    }

    /** The review's criteria and findings beside the messages, each finding with its file:line and quote. */
    private void assertReviewPanel() {
        assertThat(browser.find("#review").isDisplayed()).isTrue();
        assertThat(browser.find("#review-score").getText()).matches("Grade [A-F], \\d+ of 100 points");
        assertThat(browser.driver().findElements(By.cssSelector("#review-criteria .criterion-title")))
                .extracting(WebElement::getText)
                .containsExactly("Solves the task", "Keeps the rules", "Hands in what was asked");
        List<WebElement> findings = browser.driver().findElements(By.cssSelector("#review-findings .finding"));
        WebElement eval = findings.stream()
                .filter(finding ->
                        !finding.findElements(By.cssSelector(".where")).isEmpty())
                .findFirst()
                .orElseThrow();
        assertThat(eval.findElement(By.cssSelector(".where")).getText()).isEqualTo("main.py:2");
        assertThat(eval.findElement(By.cssSelector(".quote")).getText().strip()).isEqualTo("return eval('a + b')");
        assertThat(eval.findElement(By.cssSelector(".severity")).getText()).isEqualTo("major");
        assertThat(eval.findElement(By.cssSelector(".finding-message")).getText())
                .as("rendered as the messages are: no raw backticks")
                .contains("Do not use eval.");
        assertThat(eval.findElements(By.cssSelector(".finding-message code"))).isNotEmpty();
    }

    @Test
    void markupInMessagesIsShownAsTextAndNeverRuns() {
        String chatId = createChat("student-2");
        chats.append(
                tenant.tenantId(),
                ChatId.of(UUID.fromString(chatId)),
                NewMessage.fromAssistant(
                        "**Bold** and `x = 1`\n\n```python\nprint(\"<b>hi</b>\")\n```\n\n<script>window.pwned = 'md'"
                                + "</script> <img src=x onerror=\"window.pwned = 'img'\"> [site](javascript:alert(1))",
                        Map.of()));
        browser.openChat(service.port(), chatId);
        WebElement seeded = browser.find(".message[data-role=assistant] .body");
        assertThat(seeded.findElement(By.tagName("strong")).getText()).isEqualTo("Bold");
        assertThat(seeded.findElement(By.cssSelector("pre code")).getText()).isEqualTo("print(\"<b>hi</b>\")");
        assertThat(seeded.getText()).contains("<script>window.pwned = 'md'</script>");
        assertThat(seeded.getText()).contains("<img src=x onerror=\"window.pwned = 'img'\">");

        String attack = "<script>window.pwned = 'user'</script> <img src=x onerror=\"window.pwned = 'user-img'\">";
        browser.type(attack);
        browser.awaitReplyDone(2);
        assertThat(userTexts()).containsExactly(attack);

        browser.driver().navigate().refresh();
        browser.awaitState("connected");
        assertThat(userTexts()).containsExactly(attack);
        assertThat(browser.script("return window.pwned === undefined;")).isEqualTo(true);
        assertThat(browser.driver().findElements(By.cssSelector("#log img, #log script")))
                .isEmpty();
        assertThat(browser.driver().findElements(By.cssSelector("#log [href^='javascript' i], #log [onerror]")))
                .isEmpty();
    }

    @Test
    void aFailedReplyLeavesThePageATooLongMessageIsNotSentAndQuickMessagesGoOnceEach() {
        String chatId = createChat("student-7");
        browser.openChat(service.port(), chatId);

        browser.type("Please fail " + SharedTestConfiguration.FAIL_MARKER);
        browser.await(d -> d.findElement(By.id("notice")).getText().contains("could not answer") ? true : null);
        browser.await(d ->
                d.findElements(By.cssSelector(".message[data-role=assistant]")).isEmpty() ? true : null);

        // 30,000 three-byte characters: within the composer's 32,000 characters, beyond the server's 64 KB frame
        browser.script("document.getElementById('input').value = '\u5b57'.repeat(30000);");
        browser.find("#input").sendKeys(Keys.ENTER);
        WebElement refused = browser.await(d -> d.findElement(By.cssSelector(".message[data-state=failed]")));
        assertThat(refused.getText()).contains("Not sent: the message is too long");

        for (String question : List.of("First?", "Second?", "Third?")) {
            browser.type(question);
        }
        browser.awaitReplyDone(3);
        assertThat(userTexts()).containsSubsequence("First?", "Second?", "Third?");
        assertThat(storedMessages(chatId).stream()
                        .filter(message -> message.get("sender_role").asString().equals("user"))
                        .map(message -> message.get("content").asString()))
                .containsExactly("Please fail " + SharedTestConfiguration.FAIL_MARKER, "First?", "Second?", "Third?");
    }

    @Test
    void aMessageRefusedForASpentBudgetIsMarkedNotSentSayingUntilWhen() {
        String chatId = createChat("student-8");
        browser.openChat(service.port(), chatId);
        new Api(service.port())
                .with("X-Admin-Token", SharedTestConfiguration.ADMIN_TOKEN)
                .put("/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_tokens\": 0}");

        browser.type("What is a fraction?");
        WebElement refused = browser.await(d -> d.findElement(By.cssSelector(".message[data-state=failed]")));
        assertThat(refused.getText()).contains("Not sent: the AI allowance is used up until");
        assertThat(storedMessages(chatId)).as("nothing of it is stored").isEmpty();
    }

    @Test
    void aLongChatShowsItsLatestMessagesAndTheEarlierOnesOnRequest() {
        String chatId = createChat("student-8");
        for (int i = 0; i < 510; i++) {
            chats.append(
                    tenant.tenantId(),
                    ChatId.of(UUID.fromString(chatId)),
                    NewMessage.fromUser("line " + i, Map.of(), null));
        }
        browser.openChat(service.port(), chatId);
        assertThat(userTexts()).hasSize(500).startsWith("line 10").endsWith("line 509");

        browser.find("button.earlier").click();

        browser.await(d -> d.findElements(By.cssSelector(".message")).size() == 510 ? true : null);
        assertThat(userTexts()).hasSize(510).startsWith("line 0", "line 1").endsWith("line 509");
        assertThat(browser.driver().findElements(By.cssSelector("button.earlier")))
                .isEmpty();
    }

    @Test
    void aLinkToNoChatSaysSo() {
        browser.open(Browser.chatPage(service.port(), UUID.randomUUID().toString()));
        browser.awaitState("not-found");
        assertThat(browser.find("#status").getText()).isEqualTo("Chat not found");
        assertThat(browser.find(".gone h2").getText()).isEqualTo("Chat not found");
        assertThat(browser.find("#input").isEnabled()).isFalse();
    }

    @Test
    void aNetworkDropMidReplyEndsWithExactlyTheStoredReply() {
        String chatId = createChat("student-3");
        browser.openChat(service.port(), chatId);

        browser.type(SharedTestConfiguration.SLOW_MARKER + " explain fractions, denominators and numerators slowly");
        browser.await(d -> {
            List<WebElement> streaming = d.findElements(By.cssSelector(".message[data-state=streaming] .body"));
            return !streaming.isEmpty() && streaming.getFirst().getText().length() > 20;
        });
        assertThat(LiveConnections.drop(context, UUID.fromString(chatId))).isEqualTo(1);

        WebElement reply = browser.awaitReplyDone(1);
        assertThat(LiveConnections.count(context, UUID.fromString(chatId)))
                .as("the page connected again")
                .isEqualTo(1);
        String shown = reply.getText();
        List<JsonNode> stored = storedMessages(chatId);
        assertThat(stored).hasSize(2);
        assertThat(browser.driver().findElements(By.cssSelector(".message"))).hasSize(2);

        browser.driver().navigate().refresh();
        browser.awaitState("connected");
        assertThat(assistantTexts())
                .as("what streamed in across the drop is what a fresh load of the stored reply shows")
                .containsExactly(shown);
        assertThat(stored.get(1).get("content").asString()).contains("fractions");
    }

    @Test
    void worksInsideAnIframeOfAnotherOrigin() throws Exception {
        String chatId = createChat("student-4");
        HttpServer site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] html = ("<!doctype html><title>LMS</title><h1>Course page</h1>"
                        + "<iframe id=chat width=360 height=560 src=\"" + Browser.chatPage(service.port(), chatId)
                        + "\"></iframe>")
                .getBytes(StandardCharsets.UTF_8);
        site.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, html.length);
            exchange.getResponseBody().write(html);
            exchange.close();
        });
        site.start();
        try {
            // localhost and 127.0.0.1 are two origins: the page is framed cross-origin
            browser.open("http://localhost:" + site.getAddress().getPort() + "/");
            browser.driver().switchTo().frame("chat");
            browser.awaitState("connected");
            browser.type("Hello from inside a frame");
            assertThat(browser.awaitReplyDone(1).getText()).isNotBlank();
            browser.driver().switchTo().defaultContent();

            assertThat(api.put("/api/v1/chat-ui/settings", "{\"frame_ancestors\": [\"https://lms.example.org\"]}")
                            .status())
                    .isEqualTo(200);
            browser.driver().navigate().refresh();
            browser.driver().switchTo().frame("chat");
            assertThat(browser.driver().findElements(By.id("status")))
                    .as("a site the tenant does not list cannot frame the page")
                    .isEmpty();
        } finally {
            browser.driver().switchTo().defaultContent();
            site.stop(0);
        }
    }

    private List<String> userTexts() {
        return texts(".message[data-role=user] .body");
    }

    private List<String> assistantTexts() {
        return texts(".message[data-role=assistant] .body");
    }

    private List<String> texts(String css) {
        try {
            return browser.driver().findElements(By.cssSelector(css)).stream()
                    .map(WebElement::getText)
                    .toList();
        } catch (NoSuchElementException e) {
            return List.of();
        }
    }

    /** The origin of every resource the page loaded, itself included. */
    @SuppressWarnings("unchecked")
    private List<String> requestedOrigins() {
        return (List<String>) browser.script("return [location.href].concat(performance.getEntriesByType('resource')"
                + ".map(e => e.name)).map(u => new URL(u).origin.replace('ws:', 'http:'));");
    }

    private String createChat(String userId) {
        Api.Reply created = api.post("/api/v1/chats", Api.JSON.writeValueAsString(Map.of("user_id", userId)));
        assertThat(created.status()).isEqualTo(201);
        return created.json().get("id").asString();
    }

    private List<JsonNode> storedMessages(String chatId) {
        Api.Reply reply = api.get("/api/v1/chats/" + chatId + "/messages?limit=100");
        assertThat(reply.status()).isEqualTo(200);
        return reply.json().get("messages").valueStream().toList();
    }
}
