package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.Member;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.support.Browser;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.RequiresChromium;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/**
 * The homework page in a real Chromium that blocks third-party cookies, inside the emulated LMS's course page on
 * another site, 320 px wide: the launch goes through (bound to the browser by the LMS's platform storage, a frame
 * of the course page: the tool's login and launch pages put and read its value), the page fits, a file is handed in. A screenshot goes to
 * {@code target/screenshots/lti-homework-320px.png}.
 */
@Tag("browser")
@IntegrationTest
@ExtendWith(RequiresChromium.class)
class LtiHomeworkPageBrowserTests {

    private static EmulatedPlatform platform;
    private static EmulatedPlatform.Tool tool;
    private static Course course;
    private static ResourceLink essay;
    private static Browser browser;

    @BeforeAll
    static void aHomeworkInACourseAndABrowser(TestService service) throws IOException {
        RegisteredTool registered = RegisteredTool.in(service, "lti-browser");
        platform = registered.platform();
        tool = registered.tool();
        TestTenant school = registered.school();
        String homeworkId = school.publishHomework("pendulum-in-a-frame");
        course = platform.course("PHYS 1", "Physics for all");
        essay = course.place("The pendulum", Map.of("homework_id", homeworkId), 20.0);
        browser = Browser.blockingThirdPartyCookies();
    }

    @AfterAll
    static void close() {
        if (browser != null) {
            browser.close();
        }
        platform.close();
    }

    @Test
    void aLearnerHandsInFromTheLmsFrameWithThirdPartyCookiesBlockedAt320Px() throws IOException {
        Member ada = course.learner("Ada", "Lovelace");
        browser.viewport(320, 900);

        browser.open(platform.launch(tool, course, ada, essay).coursePage(320));
        browser.await(driver -> !driver.findElements(By.id("tool")).isEmpty());
        browser.driver().switchTo().frame(browser.find("#tool"));
        browser.await(driver -> driver.findElements(By.cssSelector("h1")).stream()
                .anyMatch(heading -> heading.getText().contains("pendulum-in-a-frame")));

        assertThat(((Number) browser.script(
                                "return document.documentElement.scrollWidth - document.documentElement.clientWidth"))
                        .intValue())
                .as("no sideways scrolling at 320 px")
                .isLessThanOrEqualTo(0);
        assertThat(browser.script("return document.cookie")).isEqualTo("");
        assertThat(browser.find("main").getText()).contains("Ada Lovelace", "You have not handed in anything yet");

        Path answer = Files.createTempFile("answer", ".md");
        Files.writeString(answer, "The mass cancels out.");
        browser.find("#files").sendKeys(answer.toString());
        browser.find("form[action^='/lti/homework/submissions?session='] button")
                .click();
        browser.await(driver -> String.valueOf(driver.getPageSource()).contains("Your files were handed in"));

        assertThat(browser.find("main").getText()).contains("Handed in ");
        browser.screenshot("lti-homework-320px");
        assertThat(Files.size(Path.of("target", "screenshots", "lti-homework-320px.png")))
                .isPositive();
    }
}
