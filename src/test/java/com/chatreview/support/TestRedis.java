package com.chatreview.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.Map;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * The Redis the integration tests on the PostgreSQL server run with, so that the suite runs once as a node of a
 * cluster (Redis implementations) and once on the embedded defaults (in-process ones): {@code REDIS_URL}, or
 * 127.0.0.1:6379. Without one reachable the server run goes on without Redis, loudly; with {@code CI=true} it
 * fails instead.
 */
public final class TestRedis {

    private static final String DEFAULT = "redis://127.0.0.1:6379";

    private TestRedis() {}

    /**
     * The run on the server is also the run as a cluster's node (events, lanes, limits and connections in Redis):
     * {@code redis.url} is set before the context is refreshed, for the beans that exist only with Redis
     * ({@code @ConditionalOnRedis} is decided before a {@code DynamicPropertyRegistrar} runs).
     */
    public static final class Properties implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            String url = TestDatabase.embedded() ? "" : url();
            context.getEnvironment()
                    .getPropertySources()
                    .addFirst(new MapPropertySource("test-redis", Map.of("redis.url", url)));
        }
    }

    /**
     * The suite runs in several test JVMs at once ({@code test.fork}, Maven's fork number), each with a service of
     * its own: each gets a Redis database of its own, or they would be nodes of one cluster on different databases
     * (their rate limits, lanes and connection counts shared). A URL that names a database keeps it.
     */
    static String forkDatabase(String url) {
        URI uri = URI.create(url);
        String fork = System.getProperty("test.fork", "");
        if (!fork.matches("\\d+")
                || (uri.getPath() != null
                        && !uri.getPath().isEmpty()
                        && !uri.getPath().equals("/"))) {
            return url;
        }
        return url.replaceFirst("/?$", "/" + Integer.parseInt(fork) % 16);
    }

    /** The URL to run with, or "" to run without Redis. */
    public static synchronized String url() {
        String configured = System.getenv("REDIS_URL");
        String url = forkDatabase(configured == null || configured.isBlank() ? DEFAULT : configured);
        URI uri = URI.create(url);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort() > 0 ? uri.getPort() : 6379), 2000);
            return url;
        } catch (IOException e) {
            String notice = "No Redis at " + url + " (" + e.getMessage() + ")";
            if (TestDatabase.mandatory()) {
                throw new IllegalStateException("CI=true and the tests need Redis: " + notice);
            }
            System.err.println("\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
                    + "!! " + notice + ": the integration tests run without Redis (single node) only.\n"
                    + "!! Start Redis (see README) or set REDIS_URL to run them as a cluster's node too.\n"
                    + "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n");
            return "";
        }
    }
}
