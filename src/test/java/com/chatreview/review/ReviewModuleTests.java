package com.chatreview.review;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;
import com.chatreview.conversation.ChatListeners;
import com.chatreview.homework.Course;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.homework.NewHomework;
import com.chatreview.submission.IncomingFile;
import com.chatreview.submission.ReviewProgress;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.support.Eventually;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestDatabase;
import com.chatreview.tenancy.Tenancy;
import com.chatreview.tenancy.TenantId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.modulith.test.ApplicationModuleTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The review module with the modules it depends on and nothing else (Spring Modulith bootstraps only those, and
 * their own dependencies), and no Redis. The chat's listeners are this test's, standing for the WebSocket
 * connections: a submission received is reviewed by its durable job, its question and the review stream into its chat
 * as the connections would get them, and the review is stored as the submission's analysis and grade.
 */
@SingleNodeToo
@ApplicationModuleTest(mode = ApplicationModuleTest.BootstrapMode.ALL_DEPENDENCIES)
@ContextConfiguration(initializers = {SharedTestConfiguration.Properties.class, ReviewModuleTests.OnItsOwn.class})
// its review jobs are its own: closed after the class, on a database of its own and without Redis (a single node), so
// that neither it nor the shared test service runs the other's reviews
@DirtiesContext
class ReviewModuleTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    ApplicationContext context;

    @Autowired
    Tenancy tenancy;

    @Autowired
    HomeworkCatalog homeworks;

    @Autowired
    SubmissionManagement submissions;

    @Autowired
    RecordingListeners listeners;

    @Test
    void theServiceRunsWithoutTheWebSocketModule() {
        List<String> modulesOfBeans = Arrays.stream(context.getBeanDefinitionNames())
                .map(context::getType)
                .filter(Objects::nonNull)
                .map(Class::getPackageName)
                .filter(name -> name.startsWith("com.chatreview."))
                .map(name -> name.substring("com.chatreview.".length()).split("\\.")[0])
                .distinct()
                .toList();
        assertThat(modulesOfBeans)
                .contains("review", "conversation", "submission")
                .doesNotContain("realtime");
    }

    @Test
    void aReceivedSubmissionIsReviewedIntoItsChatsListenersThenStored() {
        TenantId tenant =
                TenantId.of(tenancy.createTenant("review-module").tenant().id());
        Course course = homeworks.createCourse(tenant, "teacher-1", "Programming 1");
        Homework homework = homeworks.publish(
                tenant,
                new NewHomework(
                        "teacher-1",
                        course.id().toString(),
                        "loops-1",
                        "programming",
                        List.of(new NewHomework.NewFile(
                                "task", "task.md", "Write a function that sums the numbers of a list with a loop."))));
        byte[] solution =
                "def total(numbers):\n    result = 0\n    for n in numbers:\n        result += n\n    return result\n"
                        .getBytes(StandardCharsets.UTF_8);
        Submission received = submissions.receive(
                tenant,
                homework.id(),
                submissions.prepare(
                        "student-1",
                        List.of(new IncomingFile("total.py", solution.length, new ByteArrayResource(solution)))));

        Submission reviewed = Eventually.value(Eventually.PATIENCE, () -> {
            Submission now = submissions.submission(tenant, homework.id(), received.id());
            return now.review().state() == ReviewProgress.State.DONE ? now : null;
        });

        assertThat(reviewed.grade()).matches("[A-F]");
        // the listeners hear the end just after the review is stored, on the reply's own thread
        List<JsonNode> events = Eventually.value(Eventually.PATIENCE, () -> {
            List<JsonNode> heard = listeners.of(received.chatId());
            return !heard.isEmpty()
                            && heard.getLast().get("event_type").asString().equals("message_stream_ended")
                    ? heard
                    : null;
        });
        assertThat(events)
                .extracting(event -> event.get("event_type").asString())
                .startsWith("message_received", "message_stream_started")
                .endsWith("message_stream_ended")
                .containsOnly(
                        "message_received", "message_stream_started", "message_stream_token", "message_stream_ended");
        assertThat(events.getLast().get("content").asString()).isEqualTo(reviewed.analysis());
        assertThat(events)
                .extracting(event -> event.get("seq").asLong())
                .isSorted()
                .doesNotHaveDuplicates();
    }

    /**
     * A single node (no Redis, whatever REDIS_URL says) on a database of its own: on the server, a new one dropped
     * when the context closes; embedded, in a data directory of its own.
     */
    static final class OnItsOwn implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            Map<String, Object> properties = new java.util.HashMap<>();
            properties.put("redis.url", "");
            if (TestDatabase.embedded()) {
                try {
                    properties.put(
                            "database.data-dir",
                            Files.createTempDirectory("crs-review-module").toString());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            } else {
                TestDatabase.ServerDatabase database;
                try {
                    database = TestDatabase.createServerDatabase("crs_review_module");
                } catch (SQLException e) {
                    throw new IllegalStateException("No database for the review module's test", e);
                }
                properties.put("database.url", database.url());
                context.addApplicationListener((ApplicationListener<ContextClosedEvent>) closed -> database.close());
            }
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("on-its-own", properties));
        }
    }

    @TestConfiguration
    static class Listening {

        @Bean
        RecordingListeners recordingListeners() {
            return new RecordingListeners();
        }
    }

    /** One listener on every chat, keeping what it is handed. */
    static final class RecordingListeners implements ChatListeners {

        private final Map<ChatId, List<JsonNode>> events = new ConcurrentHashMap<>();

        @Override
        public List<? extends Listener> onChat(ChatId chatId) {
            return List.of(event -> events.computeIfAbsent(chatId, any -> new CopyOnWriteArrayList<>())
                    .add(parse(event)));
        }

        List<JsonNode> of(ChatId chatId) {
            return events.getOrDefault(chatId, List.of());
        }

        private static JsonNode parse(ChatEvent event) {
            return JSON.readTree(event.json());
        }
    }
}
