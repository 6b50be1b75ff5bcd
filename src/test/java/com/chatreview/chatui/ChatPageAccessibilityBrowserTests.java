package com.chatreview.chatui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.NewMessage;
import com.chatreview.support.Api;
import com.chatreview.support.Browser;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.RequiresChromium;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The chat page meets WCAG 2.1 AA (issue 36): axe-core finds nothing in any state a student sees, at desktop and
 * phone width, light and dark; what a screen reader should hear (a finished reply, a message not sent) reaches a
 * polite live region once; at 400 % zoom the messages keep the screen.
 */
@Tag("browser")
@IntegrationTest
@ExtendWith(RequiresChromium.class)
class ChatPageAccessibilityBrowserTests {

    private static final List<Integer> WIDTHS = List.of(1280, 360);
    private static final List<String> SCHEMES = List.of("light", "dark");

    /**
     * Records each text a live region takes while it is installed (an empty region says nothing): what a screen
     * reader would announce, and how politely. A region whose {@code aria-live} is {@code off} announces nothing.
     */
    private static final String LISTEN = """
            window.announced = [];
            const live = '[aria-live], [role=status], [role=alert], [role=log], [role=marquee], [role=timer]';
            const politeness = region => region.getAttribute('aria-live')
                || ({alert: 'assertive', marquee: 'off', timer: 'off'})[region.getAttribute('role')] || 'polite';
            const last = new Map();
            new MutationObserver(records => {
                const changed = new Set();
                records.forEach(record => {
                    const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
                    const region = node && node.closest(live);
                    if (region && politeness(region) !== 'off') {
                        changed.add(region);
                    }
                });
                changed.forEach(region => {
                    const text = region.textContent.replace(/\\s+/g, ' ').trim();
                    if (text && text !== last.get(region)) {
                        window.announced.push({region: region.id || region.className, politeness: politeness(region),
                            text: text});
                    }
                    last.set(region, text);
                });
            }).observe(document.body, {subtree: true, childList: true, characterData: true});
            """;

    static Browser browser;
    static Axe axe;

    TestService service;
    TestTenant tenant;
    Api api;

    @Autowired
    ChatManagement chats;

    @BeforeAll
    static void startBrowser() throws Exception {
        axe = Axe.install();
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
        tenant = service.newTenant("a11y-tests");
        api = tenant.chats();
        browser.size(1280, 800);
        browser.colorScheme("light");
    }

    @Test
    void anEmptyChatHasNoViolations() {
        browser.openChat(service.port(), createChat("a11y-1", null));
        assertThat(browser.find(".empty").getText()).contains("No messages yet");

        assertNoViolations("an empty chat");
    }

    @Test
    void aChatWithMessagesSentThroughTheComposerAndOneRefusedHasNoViolations() {
        browser.openChat(service.port(), createChat("a11y-2", null));
        browser.type("How do I add 1/2 and 1/3? Show it as a **list** with `code`.");
        browser.awaitReplyDone(1);
        sendTooLong();
        browser.await(d -> d.findElement(By.cssSelector(".message[data-state=failed]")));

        assertNoViolations("a chat with messages");
    }

    @Test
    void aReviewChatWithItsFindingsPanelHasNoViolations() {
        browser.open(uploadedSubmissionsChat());
        browser.awaitState("connected");
        browser.awaitReplyDone(1);
        browser.await(d -> browser.find("#review").isDisplayed());
        assertThat(browser.driver().findElements(By.cssSelector("#review-findings .quote")))
                .isNotEmpty();

        assertNoViolations("a review chat");
    }

    @Test
    void aReviewWithTheTeachersPointsARegradeAnswerAndAnOpenRegradeFormHasNoViolations() {
        String chatUrl = uploadedSubmissionsChat();
        Api homework = tenant.homework();
        String chatId = chatUrl.substring(chatUrl.indexOf("chat_id=") + "chat_id=".length());
        String submission = Api.JSON
                .readTree(tenant.chats()
                        .get("/api/v1/chats/" + chatId)
                        .json()
                        .get("config")
                        .toString())
                .get("submission_id")
                .asString();
        String homeworkId = tenant.chats()
                .get("/api/v1/chats/" + chatId)
                .json()
                .get("config")
                .get("homework_id")
                .asString();
        String path = "/v1/homeworks/" + homeworkId + "/submissions/" + submission;
        browser.open(chatUrl);
        browser.awaitState("connected");
        browser.awaitReplyDone(1);
        Api.Reply decided = homework.patch(path, """
                {"status": "approved", "comment": "Good start.",
                 "criteria": [{"criterionId": "correctness", "points": 20, "comment": "See the rule."}]}""");
        assertThat(decided.status()).as(decided.toString()).isEqualTo(200);
        Api.Reply asked = homework.post(
                path + "/regrade-requests", "{\"studentId\": \"student-a11y\", \"message\": \"Look again.\"}");
        assertThat(asked.status()).as(asked.toString()).isEqualTo(201);
        assertThat(homework.patch(
                                path + "/regrade-requests/"
                                        + asked.json().get("id").asString(),
                                "{\"answer\": \"I did: `eval` stays.\"}")
                        .status())
                .isEqualTo(200);
        browser.awaitReplyDone(2);
        browser.driver().navigate().refresh();
        browser.awaitState("connected");
        browser.await(d -> browser.find(".regrade[data-state='answered']").isDisplayed());
        browser.find("#regrade-form-restrictions-toggle").click();
        browser.find("#regrade-form-restrictions-text").sendKeys("A draft.");

        assertNoViolations("a review with the teacher's points, an answered request and an open form");
    }

    @Test
    void theNotFoundPageHasNoViolations() {
        browser.open(Browser.chatPage(service.port(), UUID.randomUUID().toString()));
        browser.awaitState("not-found");

        assertNoViolations("the not-found page");
    }

    /** What axe does not measure: a control's outline (1.4.11, 3:1) and the placeholder's text (1.4.3, 4.5:1). */
    @Test
    void theTextBoxAndItsPlaceholderStandOutInBothSchemes() {
        browser.openChat(service.port(), createChat("a11y-6", null));
        for (String scheme : SCHEMES) {
            browser.colorScheme(scheme);
            @SuppressWarnings("unchecked")
            Map<String, Number> ratios = (Map<String, Number>) browser.script("""
                    const luminance = color => {
                        const [r, g, b] = color.match(/[\\d.]+/g).slice(0, 3).map(v => v / 255)
                            .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
                        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
                    };
                    const ratio = (a, b) => {
                        const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
                        return (light + 0.05) / (dark + 0.05);
                    };
                    const input = document.getElementById('input');
                    const field = getComputedStyle(input);
                    const page = getComputedStyle(document.body).backgroundColor;
                    return {border_to_page: ratio(field.borderTopColor, page),
                        border_to_fill: ratio(field.borderTopColor, field.backgroundColor),
                        placeholder: ratio(getComputedStyle(input, '::placeholder').color, field.backgroundColor)};
                    """);
            assertThat(Objects.requireNonNull(ratios.get("border_to_page"), "the script returns it")
                            .doubleValue())
                    .as(scheme + ": border against the page")
                    .isGreaterThanOrEqualTo(3);
            assertThat(Objects.requireNonNull(ratios.get("border_to_fill"), "the script returns it")
                            .doubleValue())
                    .as(scheme + ": border against the fill")
                    .isGreaterThanOrEqualTo(3);
            assertThat(Objects.requireNonNull(ratios.get("placeholder"), "the script returns it")
                            .doubleValue())
                    .as(scheme + ": placeholder")
                    .isGreaterThanOrEqualTo(4.5);
        }
    }

    @Test
    void aFinishedReplyIsAnnouncedOncePolitelyNotTokenByToken() {
        browser.openChat(service.port(), createChat("a11y-3", null));
        browser.script(LISTEN);

        browser.type("Explain fractions, denominators and numerators in a few sentences");
        String reply = browser.awaitReplyDone(1).getText();

        List<Map<String, Object>> announced = announced();
        assertThat(announced).as("live region texts during one reply").hasSize(1);
        assertThat(announced.getFirst()).containsEntry("politeness", "polite");
        assertThat(announced.getFirst().get("region")).isNotEqualTo("log");
        assertThat((String) announced.getFirst().get("text"))
                .startsWith("Reply: ")
                .contains(reply.substring(0, Math.min(40, reply.length())).replaceAll("\\s+", " "));
    }

    @Test
    void aRefusedAndABlankMessageAreEachAnnouncedOncePolitely() {
        browser.openChat(service.port(), createChat("a11y-4", null));
        browser.script(LISTEN);

        sendTooLong();
        browser.await(d -> d.findElement(By.cssSelector(".message[data-state=failed]")));
        assertThat(announced())
                .singleElement()
                .satisfies(one -> assertThat(one).containsEntry("politeness", "polite"))
                .satisfies(one -> assertThat((String) one.get("text")).contains("Not sent: the message is too long"));

        browser.script("window.announced = [];");
        browser.type("   ");
        browser.await(d -> announced().isEmpty() ? null : true);
        assertThat(announced())
                .singleElement()
                .satisfies(one -> assertThat(one).containsEntry("politeness", "polite"))
                .satisfies(one -> assertThat((String) one.get("text")).contains("Nothing sent"));

        browser.script("window.announced = [];");
        browser.type("  ");
        browser.await(d -> announced().isEmpty() ? null : true);
        assertThat(announced())
                .as("the same refusal again is announced again")
                .singleElement()
                .satisfies(one -> assertThat((String) one.get("text")).contains("Nothing sent"));
        assertThat(browser.driver().findElements(By.cssSelector(".message[data-role=user]")))
                .hasSize(1);
    }

    @Test
    void atFourHundredPercentZoomTheMessagesKeepTheScreenAndALongTitleWraps() {
        String title = "Fractions, decimals and percentages: homework questions for the week before the test";
        String chatId = createChat("a11y-5", title);
        for (int i = 1; i <= 12; i++) {
            chats.append(
                    tenant.tenantId(),
                    ChatId.of(UUID.fromString(chatId)),
                    NewMessage.fromUser("Question " + i + ": how do I add fractions?", Map.of(), null));
        }
        browser.openChat(service.port(), chatId);

        browser.size(360, 800);
        awaitWidth(360);
        assertThat(browser.script(
                        "const t = document.getElementById('title');"
                                + " return t.scrollWidth <= t.clientWidth && t.textContent === arguments[0];",
                        title))
                .as("the whole title shows at 360 px")
                .isEqualTo(true);

        // 1280 x 800 at 400 % is a 320 x 200 CSS pixel viewport
        browser.viewport(320, 200);
        Number messages = (Number) browser.script("""
                const log = document.getElementById('log');
                log.scrollIntoView({block: 'start'});
                const box = log.getBoundingClientRect();
                return Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);""");
        assertThat(messages.intValue())
                .as("CSS pixels of the 200 that show messages")
                .isGreaterThanOrEqualTo(150);
        assertThat(((Number) browser.script("return document.documentElement.scrollWidth;")).intValue())
                .as("no sideways scrolling at 400 %")
                .isLessThanOrEqualTo(320);
    }

    /** Runs axe at each width and colour scheme, and fails with every violation of every view at once. */
    private void assertNoViolations(String state) {
        Map<String, List<Axe.Violation>> found = new LinkedHashMap<>();
        for (int width : WIDTHS) {
            browser.size(width, 800);
            awaitWidth(width);
            for (String scheme : SCHEMES) {
                browser.colorScheme(scheme);
                assertThat(browser.script(
                                "return matchMedia('(prefers-color-scheme: ' + arguments[0] + ')').matches;", scheme))
                        .isEqualTo(true);
                List<Axe.Violation> violations = axe.check(browser);
                if (!violations.isEmpty()) {
                    found.put(state + " at " + width + " px, " + scheme, violations);
                }
            }
        }
        if (!found.isEmpty()) {
            List<String> report = new ArrayList<>();
            found.forEach((view, violations) -> {
                report.add(view + ":");
                violations.forEach(violation -> report.add("  " + violation));
            });
            fail("axe-core finds violations of " + Axe.TAGS + ":\n" + String.join("\n", report));
        }
    }

    private void awaitWidth(int width) {
        browser.await(d -> ((Number) browser.script("return window.innerWidth;")).intValue() <= width ? true : null);
    }

    /** 30,000 three-byte characters: within the composer's 32,000 characters, beyond the server's 64 KB frame. */
    private void sendTooLong() {
        browser.script("document.getElementById('input').value = '\u5b57'.repeat(30000);");
        browser.find("#input").sendKeys(Keys.ENTER);
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> announced() {
        return (List<Map<String, Object>>) browser.script("return window.announced;");
    }

    /** A homework with a rule the upload breaks, so that the review panel has a finding with a quote. */
    private String uploadedSubmissionsChat() {
        Api homework = tenant.homework();
        String courseId = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}")
                .json()
                .get("id")
                .asString();
        String homeworkId = homework.post("/v1/homeworks", """
                        {"teacherId": "t-1", "courseId": "%s", "assignmentId": "add-1",
                         "files": [{"fileType": "task", "fileName": "task.md",
                                    "content": "Write a function `add(a, b)` that returns the sum of a and b."},
                                   {"fileType": "restriction", "fileName": "rules.txt",
                                    "content": "Do not use `eval`."}]}""".formatted(courseId))
                .json()
                .get("id")
                .asString();
        Api.Reply uploaded = homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Api.Multipart()
                        .field("studentId", "student-a11y")
                        .file(
                                "files",
                                "main.py",
                                "text/x-python",
                                ("def add(a, b):\n    return eval('a + b')  # a long line that scrolls sideways in its"
                                                + " box at phone width\n")
                                        .getBytes(StandardCharsets.UTF_8)));
        assertThat(uploaded.status()).as(uploaded.toString()).isEqualTo(201);
        return uploaded.json().get("chatIframeUrl").asString();
    }

    private String createChat(String userId, @Nullable String title) {
        Map<String, String> body =
                title == null ? Map.of("user_id", userId) : Map.of("user_id", userId, "title", title);
        Api.Reply created = api.post("/api/v1/chats", Api.JSON.writeValueAsString(body));
        assertThat(created.status()).isEqualTo(201);
        return created.json().get("id").asString();
    }
}
