package com.chatreview.chatui;

import com.chatreview.support.Browser;
import com.chatreview.support.NpmPackage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * axe-core, the accessibility engine most audits use (the npm package {@code axe-core}), run inside the page the
 * browser shows. Installed with {@code npm ci} from {@code src/test/axe-core} (its lock file is committed) the first
 * time it is needed; without node and npm the tests that need it skip loudly, unless {@code CI=true}.
 */
final class Axe {

    /** WCAG 2.0 and 2.1, levels A and AA, and axe's best practices: what the audit of issue 36 ran. */
    static final List<String> TAGS = List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice");

    private static final Path HOME = Path.of(System.getProperty("basedir", "."), "src", "test", "axe-core");
    private static final Path SCRIPT =
            HOME.resolve("node_modules").resolve("axe-core").resolve("axe.min.js");

    /** One rule the page breaks, and where, as the page's script gives them (axe-core may leave impact null). */
    record Violation(
            @Nullable String rule,
            @Nullable String impact,
            @Nullable String help,
            List<String> nodes) {

        @Override
        public String toString() {
            return rule + " (" + impact + "): " + help + "\n      " + String.join("\n      ", nodes);
        }
    }

    private final String source;

    private Axe(String source) {
        this.source = source;
    }

    static Axe install() throws Exception {
        NpmPackage.install(HOME, SCRIPT, "axe-core");
        return new Axe(Files.readString(SCRIPT));
    }

    /**
     * What axe finds in the page as the browser shows it now. The script goes in through the driver, which the
     * page's Content-Security-Policy does not govern, so the page stays as strict as it is served.
     */
    @SuppressWarnings("unchecked")
    List<Violation> check(Browser browser) {
        if (!Boolean.TRUE.equals(browser.script("return typeof window.axe === 'object';"))) {
            browser.script(source);
        }
        Object result = browser.asyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
                    .then(results => done(results.violations.map(v => ({
                        rule: v.id, impact: v.impact, help: v.help,
                        nodes: v.nodes.map(n => n.target.join(' ') + ': '
                            + (n.failureSummary || '').replace(/\\s+/g, ' '))}))))
                    .catch(e => done('axe failed: ' + e));
                """, TAGS);
        if (result instanceof String failure) {
            throw new IllegalStateException(failure);
        }
        return ((List<Map<String, Object>>) result)
                .stream()
                        .map(v -> new Violation(
                                (String) v.get("rule"), (String) v.get("impact"), (String) v.get("help"), (List<String>)
                                        Objects.requireNonNull(v.get("nodes"), "the script maps every node")))
                        .toList();
    }
}
