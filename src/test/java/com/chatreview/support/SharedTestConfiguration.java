package com.chatreview.support;

import com.chatreview.assistant.Assistant;
import com.chatreview.assistant.AssistantFailure;
import com.chatreview.assistant.AssistantReply;
import com.chatreview.assistant.Conversation;
import com.chatreview.assistant.Review;
import com.chatreview.assistant.TokenSink;
import com.chatreview.chat.ChatDeletionGuard;
import com.chatreview.chat.ChatId;
import com.chatreview.grading.ReviewRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.MapPropertySource;

/**
 * What every integration test shares: the database wiring, a clock tests can move, a deletion guard tests can arm,
 * and an assistant that fails on request.
 */
@org.springframework.boot.test.context.TestConfiguration(proxyBeanMethods = false)
public class SharedTestConfiguration {

    /**
     * The properties every integration test runs with, added before the context refreshes: the web server and
     * its filters are made before any bean of the context (a registrar bean's properties came too late for them,
     * and the DataSource they pull in was made on the embedded PostgreSQL under ./data instead of the test's).
     */
    public static final class Properties implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            Map<String, Object> properties = new LinkedHashMap<>();
            if (TestDatabase.embedded()) {
                properties.put("database.url", "");
                properties.put("database.data-dir", temporaryDataDir());
            } else {
                properties.put("database.url", TestDatabase.serverDatabaseUrl().orElseThrow());
                properties.put("database.user", TestDatabase.user());
                properties.put("database.password", TestDatabase.password());
            }
            properties.put("tenancy.admin-token", ADMIN_TOKEN);
            properties.put("tenancy.demo-tenant", "false");
            // reviews run, retry and give up within a test's patience
            properties.put("review.poll-interval", "250ms");
            properties.put("review.first-retry-delay", "200ms");
            properties.put("review.retry-backoff", "1.0");
            properties.put("review.max-attempts", "2");
            properties.put("review.shutdown-wait", "5s");
            // an erasure that finds a chat still held open runs again within a test's patience
            properties.put("privacy.erasure-retry", "500ms");
            properties.put("privacy.job-poll-interval", "1s");
            // the tests' receivers listen on 127.0.0.1 over plain http (docs/api.md, Webhooks: the operator may allow
            // it)
            properties.put("webhook.allow-http", "true");
            properties.put("webhook.allow-private-networks", "true");
            // and the LMS platforms they emulate too (docs/lti.md: the operator may allow a test platform)
            properties.put("lti.allow-http", "true");
            properties.put("lti.allow-private-networks", "true");
            // a test platform rotates its key, and forges kids, within moments
            properties.put("lti.platform-keys-refresh-limit", "100ms");
            // a learner's hand-ins an hour: LtiHomeworkPageIntegrationTests.HAND_INS_AN_HOUR
            properties.put("lti.hand-ins-per-learner", "3");
            // a score the platform refused is sent again soon (LtiGradePassbackIntegrationTests)
            properties.put("lti.score-first-retry", "100ms");
            // a platform that stalls is given up on after 5 s, not 10 (LtiGradePassbackIntegrationTests); a slow one
            // (3 s) is still waited for
            properties.put("lti.platform-timeout", "5s");
            properties.put("sealing.key", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");
            // three attempts: a retry after 1 s, a last one a second later
            properties.put("webhook.retry-delays", "1s,1s");
            // replies stream at once (a test that acts mid-reply asks for a slow one: SLOW_MARKER); the suite's time
            // is not spent watching the offline assistant type
            properties.put("assistant.offline-token-delay", "1ms");
            context.getEnvironment()
                    .getPropertySources()
                    .addFirst(new MapPropertySource("integration-test", properties));
        }
    }

    public static final String ADMIN_TOKEN = "test-admin-token";

    private static volatile String dataDir;

    private static synchronized String temporaryDataDir() {
        if (dataDir == null) {
            try {
                dataDir = Files.createTempDirectory("crs-test-data").toString();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dataDir;
    }

    /** The service's clock, which a test may move to a later day or month ({@link TestClock}). */
    @Bean
    @Primary
    TestClock testClock() {
        return new TestClock();
    }

    @Bean
    HeldChats heldChats() {
        return new HeldChats();
    }

    /** Chats a test declares held open, as a WebSocket connection would. */
    public static class HeldChats implements ChatDeletionGuard {
        private final Map<UUID, String> held = new ConcurrentHashMap<>();

        public void hold(UUID chatId) {
            held.put(chatId, "a test holds it open");
        }

        public void release(UUID chatId) {
            held.remove(chatId);
        }

        @Override
        public Optional<String> blockingReason(ChatId chatId) {
            return Optional.ofNullable(held.get(chatId.value()));
        }
    }

    /** A user message holding this fails the assistant after its first tokens, as a provider dropping out would. */
    public static final String FAIL_MARKER = "[[fail]]";

    /** A user message holding this is answered slowly (50 ms a token), so that a test can act mid-reply. */
    public static final String SLOW_MARKER = "[[slow]]";

    /**
     * A submitted file holding {@code [[review-fails:NAME]]} makes every review of it fail after its first tokens,
     * until a test adds NAME to {@link #HEALED_REVIEW_FAULTS}.
     */
    public static final Pattern REVIEW_FAULT = Pattern.compile("\\[\\[review-fails:([\\w-]+)]]");

    public static final Set<String> HEALED_REVIEW_FAULTS = ConcurrentHashMap.newKeySet();

    /**
     * A submitted file holding {@code [[slow-review:NAME]]} takes {@link #SLOW_REVIEW_TIME} to review, until a test
     * adds NAME to {@link #HURRIED_REVIEWS} (a review under way then ends at once).
     */
    public static final Pattern SLOW_REVIEW = Pattern.compile("\\[\\[slow-review:([\\w-]+)]]");

    public static final Duration SLOW_REVIEW_TIME = Duration.ofSeconds(1);

    public static final Set<String> HURRIED_REVIEWS = ConcurrentHashMap.newKeySet();

    /** The configured assistant, except that it fails or slows down when the message to answer asks it to. */
    @Bean
    @Primary
    Assistant assistantOnRequest(@Qualifier("assistant") Assistant assistant) {
        return new Assistant() {
            @Override
            public AssistantReply reply(Conversation conversation, TokenSink tokens) {
                String question = conversation.lastUserTurn().content();
                if (question.contains(FAIL_MARKER)) {
                    AtomicInteger streamed = new AtomicInteger();
                    return assistant.reply(conversation, token -> {
                        if (streamed.incrementAndGet() > 2) {
                            throw new AssistantFailure("the test provider failed on request");
                        }
                        tokens.accept(token);
                    });
                }
                if (question.contains(SLOW_MARKER)) {
                    return assistant.reply(conversation, token -> {
                        slowDown();
                        tokens.accept(token);
                    });
                }
                return assistant.reply(conversation, tokens);
            }

            @Override
            public Review review(ReviewRequest request, Consumer<String> tokens) {
                for (ReviewRequest.ReviewDocument document : request.submission()) {
                    Matcher slow = SLOW_REVIEW.matcher(document.text());
                    if (slow.find()) {
                        takeTime(slow.group(1));
                    }
                    Matcher fault = REVIEW_FAULT.matcher(document.text());
                    if (fault.find() && !HEALED_REVIEW_FAULTS.contains(fault.group(1))) {
                        AtomicInteger streamed = new AtomicInteger();
                        return assistant.review(request, token -> {
                            if (streamed.incrementAndGet() > 2) {
                                throw new AssistantFailure("the test provider failed on request");
                            }
                            tokens.accept(token);
                        });
                    }
                }
                return assistant.review(request, tokens);
            }
        };
    }

    private static void takeTime(String name) {
        long until = System.nanoTime() + SLOW_REVIEW_TIME.toNanos();
        while (System.nanoTime() < until && !HURRIED_REVIEWS.contains(name)) {
            slowDown();
        }
    }

    private static void slowDown() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssistantFailure("interrupted", e);
        }
    }
}
