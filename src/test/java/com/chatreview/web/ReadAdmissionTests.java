package com.chatreview.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.database.DatabaseSettings;
import jakarta.servlet.FilterChain;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * Reads go into the handlers at most as many at once as the pool has connections, in the order they came; one that
 * waited the pool's timeout goes in anyway and gives back no turn it never had; writes and other paths never wait.
 */
class ReadAdmissionTests {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    final List<String> entered = new CopyOnWriteArrayList<>();
    final CountDownLatch release = new CountDownLatch(1);

    @Test
    void readsBeyondThePoolWaitAndGoInTheOrderTheyCame() throws Exception {
        ReadAdmission admission = admission(2, Duration.ofSeconds(30));
        CountDownLatch firstDone = new CountDownLatch(1);
        CountDownLatch secondDone = new CountDownLatch(1);
        Thread first = Thread.ofVirtual().start(() -> filter(admission, "GET", "/api/v1/chats/1", firstDone));
        Thread second = Thread.ofVirtual().start(() -> filter(admission, "GET", "/v1/homeworks", secondDone));
        await(() -> entered.size() == 2);
        CountDownLatch thirdDone = new CountDownLatch(1);
        Thread third = Thread.ofVirtual().start(() -> filter(admission, "GET", "/api/v1/chats/3", thirdDone));
        awaitWaiting(third);
        Thread fourth = Thread.ofVirtual().start(() -> filter(admission, "HEAD", "/api/v1/chats/4", null));
        awaitWaiting(fourth);
        assertThat(entered).containsExactlyInAnyOrder("/api/v1/chats/1", "/v1/homeworks");

        firstDone.countDown();
        await(() -> entered.contains("/api/v1/chats/3"));
        assertThat(entered)
                .as("the first to wait has the first turn given back: %s", entered)
                .hasSize(3);
        assertThat(fourth.isAlive()).as("the next waits for the next turn").isTrue();
        secondDone.countDown();
        thirdDone.countDown();
        for (Thread reader : List.of(first, second, third, fourth)) {
            assertThat(reader.join(TIMEOUT)).isTrue();
        }
        assertThat(entered.subList(2, 4)).containsExactly("/api/v1/chats/3", "/api/v1/chats/4");
    }

    @Test
    void aReadThatWaitedThePoolsTimeoutGoesInAndGivesBackNoTurn() throws Exception {
        ReadAdmission admission = admission(1, Duration.ofMillis(200));
        Thread holder = read(admission, "holder", "/api/v1/chats/1");
        await(() -> entered.contains("holder"));

        Thread late = read(admission, "late", "/api/v1/chats/2");
        await(() -> entered.contains("late")); // in the handler beside the holder, though no turn was free
        release.countDown();
        assertThat(holder.join(TIMEOUT)).isTrue();
        assertThat(late.join(TIMEOUT)).isTrue();

        // one turn again, not two: the late read gave back none
        CountDownLatch hold = new CountDownLatch(1);
        Thread again = Thread.ofVirtual().start(() -> filter(admission, "GET", "/api/v1/chats/3", hold));
        await(() -> entered.contains("/api/v1/chats/3"));
        long started = System.nanoTime();
        filter(admission, "GET", "/api/v1/chats/4", null);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("the second read waited for the one turn")
                .isGreaterThanOrEqualTo(Duration.ofMillis(150));
        hold.countDown();
        assertThat(again.join(TIMEOUT)).isTrue();
    }

    @Test
    void writesAndOtherPathsAreNeverHeld() throws Exception {
        ReadAdmission admission = admission(1, Duration.ofSeconds(30));
        Thread holder = read(admission, "holder", "/api/v1/chats/1");
        await(() -> entered.contains("holder"));

        for (String[] request : new String[][] {
            {"POST", "/api/v1/chats"}, {"PATCH", "/api/v1/chats/1"}, {"GET", "/actuator/health"}, {"GET", "/chat/"}
        }) {
            Thread passing = Thread.ofVirtual().start(() -> filter(admission, request[0], request[1], null));
            assertThat(passing.join(Duration.ofSeconds(10)))
                    .as(request[0] + " " + request[1])
                    .isTrue();
        }
        release.countDown();
        assertThat(holder.join(TIMEOUT)).isTrue();
    }

    private ReadAdmission admission(int pool, Duration timeout) {
        return new ReadAdmission(new DatabaseSettings(null, null, null, Path.of("unused"), pool, timeout));
    }

    /** A read that, once in the handler, notes its name and stays there until the test releases it. */
    private Thread read(ReadAdmission admission, String name, String path) {
        return Thread.ofVirtual().name(name).start(() -> {
            FilterChain handler = (request, response) -> {
                entered.add(name);
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            run(admission, "GET", path, handler);
        });
    }

    private void filter(ReadAdmission admission, String method, String path, @Nullable CountDownLatch hold) {
        run(admission, method, path, (request, response) -> {
            entered.add(path);
            if (hold != null) {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
    }

    private static void run(ReadAdmission admission, String method, String path, FilterChain chain) {
        try {
            admission.doFilter(new MockHttpServletRequest(method, path), new MockHttpServletResponse(), chain);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Until the thread waits (for its turn). */
    private static void awaitWaiting(Thread thread) throws InterruptedException {
        await(() -> thread.getState() == Thread.State.WAITING || thread.getState() == Thread.State.TIMED_WAITING);
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("in time").isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
