package com.chatreview.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.util.FileSystemUtils;

/**
 * A real headless Chromium driven by the system's chromedriver ({@code /usr/bin/chromium},
 * {@code /usr/bin/chromedriver}, or {@code CHROMIUM_BIN} and {@code CHROMEDRIVER}), with a fresh profile and
 * everything that would reach out to the internet turned off.
 */
public final class Browser implements AutoCloseable {

    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final ChromeDriver driver;
    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    static String chromium() {
        return System.getenv().getOrDefault("CHROMIUM_BIN", "/usr/bin/chromium");
    }

    static String chromedriver() {
        return System.getenv().getOrDefault("CHROMEDRIVER", "/usr/bin/chromedriver");
    }

    /** What is missing to run a browser, or null when nothing is. */
    static String missing() {
        if (!RequiresChromium.executable(chromium())) {
            return "Chromium (" + chromium() + ")";
        }
        if (!RequiresChromium.executable(chromedriver())) {
            return "chromedriver (" + chromedriver() + ")";
        }
        return null;
    }

    public static Browser start() {
        return start(false);
    }

    /**
     * A browser that refuses cookies in third-party contexts (an iframe of another site), as Safari and Firefox do
     * and Chrome does when the user asks: what a tool in an LMS's iframe meets.
     */
    public static Browser blockingThirdPartyCookies() {
        return start(true);
    }

    private static Browser start(boolean blockThirdPartyCookies) {
        try {
            Path profile = Files.createTempDirectory("crs-chromium");
            ChromeOptions options = new ChromeOptions();
            if (blockThirdPartyCookies) {
                options.setExperimentalOption(
                        "prefs",
                        java.util.Map.of("profile.block_third_party_cookies", true, "profile.cookie_controls_mode", 1));
            }
            options.setBinary(chromium());
            options.addArguments(
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-dev-shm-usage",
                    "--user-data-dir=" + profile,
                    "--window-size=1280,800");
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(new File(chromedriver()))
                    .usingAnyFreePort()
                    .build();
            return new Browser(new ChromeDriver(service, options), profile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public WebDriver driver() {
        return driver;
    }

    public void open(String url) {
        driver.get(url);
    }

    public WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    public <T> T await(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, TIMEOUT).until(condition);
    }

    /** Waits until the page's status shows this state ({@code connected}, {@code not-found}...). */
    public void awaitState(String state) {
        await(d -> state.equals(d.findElement(By.id("status")).getDomAttribute("data-state")));
    }

    /** Opens the chat page of the service on {@code port} for the chat, and waits until it is connected. */
    public void openChat(int port, String chatId) {
        open(chatPage(port, chatId));
        awaitState("connected");
    }

    public static String chatPage(int port, String chatId) {
        return "http://127.0.0.1:" + port + "/chat/?chat_id=" + chatId;
    }

    /** Types the text into the composer and sends it with Enter. */
    public void type(String text) {
        WebElement input = find("#input");
        input.sendKeys(text);
        input.sendKeys(Keys.ENTER);
    }

    /** Waits until the {@code n}th assistant message is complete and none is under way; returns its body. */
    public WebElement awaitReplyDone(int n) {
        return await(d -> {
            List<WebElement> done = d.findElements(By.cssSelector(".message[data-role=assistant][data-state=done]"));
            boolean busy = !d.findElements(
                            By.cssSelector(".message[data-state=streaming], .message[data-state=pending]"))
                    .isEmpty();
            return done.size() >= n && !busy ? done.get(n - 1).findElement(By.className("body")) : null;
        });
    }

    public Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /** Runs a script that ends by calling its last argument, the callback; its value is the script's result. */
    public Object asyncScript(String script, Object... arguments) {
        driver.manage().timeouts().scriptTimeout(TIMEOUT);
        return ((JavascriptExecutor) driver).executeAsyncScript(script, arguments);
    }

    /** Makes the page see {@code prefers-color-scheme: light} or {@code dark}, as the system's setting would. */
    public void colorScheme(String scheme) {
        driver.executeCdpCommand(
                "Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", scheme))));
    }

    public void size(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
    }

    /** Sizes the window so that the page itself gets {@code width} x {@code height} CSS pixels. */
    public void viewport(int width, int height) {
        size(width, height);
        int chrome = ((Number) script("return window.outerHeight - window.innerHeight;")).intValue();
        size(width, height + chrome);
        await(d -> ((Number) script("return window.innerHeight;")).intValue() == height ? true : null);
    }

    /** Saves what the browser shows to {@code target/screenshots/<name>.png} (test output, not committed). */
    public Path screenshot(String name) {
        try {
            Path directory = Files.createDirectories(Path.of("target", "screenshots"));
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Path target = directory.resolve(name + ".png");
            Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
        try {
            FileSystemUtils.deleteRecursively(profile);
        } catch (IOException e) {
            // a temporary profile left behind is harmless
        }
    }
}
