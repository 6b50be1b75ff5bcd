package com.chatreview.support;

import static org.assertj.core.api.Assertions.fail;

import com.chatreview.support.TestDatabase.ServerDatabase;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.util.FileSystemUtils;

/**
 * The service as a cluster runs it: several nodes, each in a JVM of its own ({@link ServiceProcess}), on one
 * database of their own on the PostgreSQL server and one Redis of their own, behind nginx with the configuration in
 * {@code deploy/nginx/}. For the {@code *ClusterTests}, which {@link RequiresCluster} skips when a piece is not
 * installed. The cluster owns every process it starts and stops each by its handle; it never touches the shared
 * Redis or the PostgreSQL server's process. Logs of nginx and Redis go to {@code target/<name>/}, each node's to
 * {@code target/<name>-node-<n>/}.
 */
public final class Cluster implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(20);
    private static final Duration STOP = Duration.ofSeconds(20);
    private static final Path BASEDIR = Path.of(System.getProperty("basedir", "."));
    private static final Path NGINX_TEMPLATE = BASEDIR.resolve("deploy/nginx/chat-review.conf.template");

    /**
     * What every node runs with unless a test says otherwise: a smaller pool than a production node's, since the
     * PostgreSQL server is shared with every other test JVM, and the review concurrency that pool allows.
     */
    private static final Map<String, String> NODE_DEFAULTS = Map.of(
            "DATABASE_POOL_SIZE",
            "5",
            "REVIEW_CONCURRENCY",
            "2",
            // one key on every node, as deploy/compose.yaml has it: a secret sealed on one node opens on another
            "SEALING_KEY",
            "Y2x1c3Rlci10ZXN0cy13ZWJob29rLWtleS0zMmJ5dGU=");

    /**
     * What the shared cluster ({@link #shared()}) runs with: the union of what its classes need, none of which
     * changes what the others test (http and private addresses allowed for webhooks and LTI, whose receivers and
     * emulated platforms listen on 127.0.0.1; a webhook answer awaited 3 s; LTI scores retried after 200 ms and taken over from a killed node
     * after 5 s, a platform's answer awaited 2 s; a key issued on one node known on the other within 2 s).
     */
    private static final Map<String, String> SHARED_SETTINGS = Map.of(
            "WEBHOOK_ALLOW_HTTP", "true",
            "WEBHOOK_ALLOW_PRIVATE_NETWORKS", "true",
            // an attempt's claim lapses after 12 s, not 30: a delivery whose nodes were killed mid-attempt goes again
            "WEBHOOK_TIMEOUT", "3s",
            "LTI_ALLOW_HTTP", "true",
            "LTI_ALLOW_PRIVATE_NETWORKS", "true",
            "LTI_SCOREFIRSTRETRY", "200ms",
            "LTI_SCORELEASE", "5s",
            // a lease longer than a token's fetch and a score's post, 2 s each at most
            "LTI_PLATFORMTIMEOUT", "2s",
            "TENANCY_KNOWNKEYSREFRESH", "2s");

    private static @Nullable Cluster shared;

    private final String name;
    private final Path logDir;
    private final Path workDir;
    private final List<Node> nodes = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::stopQuietly, "cluster-shutdown");
    private ServerDatabase database;
    private Process redis;
    private int redisPort;
    private Process nginx;
    private int port;
    private boolean closed;

    private Cluster(String name) throws IOException {
        this.name = name;
        this.logDir = Files.createDirectories(BASEDIR.resolve("target").resolve(name));
        this.workDir = Files.createTempDirectory("crs-" + name);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts a database, Redis, {@code nodes} service nodes one after another (the first migrates the schema) and
     * nginx in front of them; {@code environment} is added to every node's. When any of it fails to start,
     * whatever had started is stopped before the failure is thrown.
     */
    public static Cluster start(String name, int nodes, Map<String, String> environment) throws Exception {
        Cluster cluster = new Cluster(name);
        try {
            cluster.startDatabase();
            cluster.startRedis();
            for (int i = 1; i <= nodes; i++) {
                cluster.startNode(i, environment);
            }
            cluster.startNginx();
            return cluster;
        } catch (Exception | AssertionError failure) {
            try {
                cluster.close();
            } catch (Exception | AssertionError closing) {
                failure.addSuppressed(closing);
            }
            throw failure;
        }
    }

    /**
     * The cluster that the classes whose tests need no settings of their own share, as Spring shares an application
     * context between test classes: started by the first that asks, handed to the next with every node and Redis
     * running again (a test may have killed them), stopped when the test JVM exits. Each test makes a tenant of its
     * own; the classes that share it do not close it.
     */
    public static synchronized Cluster shared() throws Exception {
        if (shared == null || shared.closed) {
            // one per test JVM, each with directories of its own
            shared = start("shared-cluster-" + System.getProperty("test.fork", "1"), 2, SHARED_SETTINGS);
        } else {
            shared.restartWhatStopped();
        }
        return shared;
    }

    private void restartWhatStopped() throws IOException, InterruptedException {
        if (!redis.isAlive()) {
            restartRedis();
        }
        for (Node node : nodes) {
            if (!node.service.running()) {
                node.start();
            }
        }
    }

    /** nginx's access log, as the deployment's configuration writes it. */
    public Path accessLog() {
        return logDir.resolve("nginx-access.log");
    }

    /** The port nginx listens on: the cluster's one address, as clients see it. */
    public int port() {
        return port;
    }

    /**
     * A client of the cluster, through nginx. nginx replaces the made-up client address {@link Api} sends with the
     * one it was connected from: to the nodes, every request through it comes from 127.0.0.1.
     */
    public Api api() {
        return new Api(port);
    }

    /** The operator's client of the cluster, through nginx. */
    public Api admin() {
        return api().with("X-Admin-Token", ServiceProcess.ADMIN_TOKEN);
    }

    /** A new tenant, made through nginx: its API key. */
    public String newTenant(String name) {
        Api.Reply tenant = admin().post("/admin/v1/tenants", "{\"name\": \"" + name + "\"}");
        if (tenant.status() != 201) {
            throw new AssertionError("no tenant: " + tenant);
        }
        return tenant.json().get("api_key").asString();
    }

    /** A new chat of the user, made with {@code api} (which carries the tenant's key): its id. */
    public static String newChat(Api api, String userId) {
        Api.Reply chat = api.post("/api/v1/chats", "{\"user_id\": \"" + userId + "\"}");
        if (chat.status() != 201) {
            throw new AssertionError("no chat: " + chat);
        }
        return chat.json().get("id").asString();
    }

    public List<Node> nodes() {
        return List.copyOf(nodes);
    }

    /** The node numbered {@code number}, from 1. */
    public Node node(int number) {
        return nodes.get(number - 1);
    }

    /** The node that answered a request made through nginx, by the {@code X-Upstream} header the tests' nginx adds. */
    public Node servedBy(Api.Reply reply) {
        String upstream = reply.header("X-Upstream");
        return nodes.stream()
                .filter(node -> node.address().equals(upstream))
                .findFirst()
                .orElseThrow(() -> new AssertionError("X-Upstream " + upstream + " is none of the nodes "
                        + nodes.stream().map(Node::address).toList() + "; reply: " + reply));
    }

    public String databaseUrl() {
        return database.url();
    }

    public String redisUrl() {
        return "redis://127.0.0.1:" + redisPort;
    }

    /** One service node: its own port, its own JVM. */
    public static final class Node {
        private final int number;
        private final ServiceProcess service;

        private Node(int number, ServiceProcess service) {
            this.number = number;
            this.service = service;
        }

        public int number() {
            return number;
        }

        public int port() {
            return service.port();
        }

        /** The node's address as nginx names it in {@code X-Upstream}. */
        public String address() {
            return "127.0.0.1:" + port();
        }

        /** A client of this node alone, past nginx. */
        public Api api() {
            return new Api(port());
        }

        public Api admin() {
            return api().with("X-Admin-Token", ServiceProcess.ADMIN_TOKEN);
        }

        /** Stops the node as an orchestrator does (SIGTERM) and waits until it has exited. */
        public void stop() throws InterruptedException {
            service.terminate();
        }

        /** Kills the node (SIGKILL): no shutdown of any kind. */
        public void kill() throws InterruptedException {
            service.kill();
        }

        /** Starts the node again, on the same port, and waits until it is UP. */
        public void start() throws IOException, InterruptedException {
            service.start();
        }

        @Override
        public String toString() {
            return "node " + number + " (" + address() + ")";
        }
    }

    /** Stops nginx, the nodes and Redis by their handles, then drops the database. */
    @Override
    public synchronized void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        List<Throwable> failures = new ArrayList<>();
        attempt(failures, () -> stop(nginx));
        for (Node node : nodes.reversed()) {
            attempt(failures, node.service::close);
        }
        attempt(failures, () -> stop(redis));
        if (database != null) {
            attempt(failures, database::close);
        }
        attempt(failures, () -> FileSystemUtils.deleteRecursively(workDir));
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is what is closing the cluster
        }
        if (!failures.isEmpty()) {
            Exception failure = new IllegalStateException("The cluster " + name + " did not stop cleanly");
            failures.forEach(failure::addSuppressed);
            throw failure;
        }
    }

    /** A test JVM that ends without closing the cluster (interrupted, timed out) still leaves no process behind. */
    private void stopQuietly() {
        try {
            close();
        } catch (Exception e) {
            System.err.println("Stopping the cluster " + name + ": " + e);
        }
    }

    private void startDatabase() throws SQLException {
        database = TestDatabase.createServerDatabase("crs_" + name.replaceAll("\\W", "_"));
    }

    /** Stops the cluster's Redis (SIGKILL: it keeps nothing on disk either way). */
    public void stopRedis() throws InterruptedException {
        redis.destroyForcibly();
        redis.waitFor();
    }

    /** Starts the cluster's Redis again, empty, on the same port. */
    public void restartRedis() throws IOException, InterruptedException {
        startRedis(redisPort);
    }

    private void startRedis() throws IOException, InterruptedException {
        startRedis(freePort());
    }

    private void startRedis(int port) throws IOException, InterruptedException {
        redisPort = port;
        Path log = logDir.resolve("redis-" + System.nanoTime() + ".log");
        redis = new ProcessBuilder(
                        redisServer(),
                        "--port",
                        Integer.toString(redisPort),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--dir",
                        workDir.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        awaitReady("Redis", redis, log, () -> redisAnswers(redisPort));
    }

    private void startNode(int number, Map<String, String> environment) throws IOException, InterruptedException {
        Map<String, String> nodeEnvironment = new LinkedHashMap<>(NODE_DEFAULTS);
        nodeEnvironment.put("DATABASE_URL", database.url());
        nodeEnvironment.put("DATABASE_USER", TestDatabase.user());
        nodeEnvironment.put("DATABASE_PASSWORD", TestDatabase.password());
        nodeEnvironment.put("REDIS_URL", redisUrl());
        nodeEnvironment.putAll(environment);
        Node node = new Node(number, new ServiceProcess(name + "-node-" + number, nodeEnvironment));
        nodes.add(node);
        node.start();
    }

    private void startNginx() throws IOException, InterruptedException {
        port = freePort();
        Path site = workDir.resolve("chat-review.conf");
        Files.writeString(
                site, nginxSite(port, nodes.stream().map(Node::address).toList(), accessLog()));
        Path config = workDir.resolve("nginx.conf");
        Files.writeString(config, nginxMain(site));
        Path log = logDir.resolve("nginx.log");
        Files.deleteIfExists(logDir.resolve("nginx-access.log"));
        Files.deleteIfExists(logDir.resolve("nginx-error.log"));
        nginx = new ProcessBuilder(nginx(), "-c", config.toString(), "-p", workDir + File.separator)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        awaitReady("nginx", nginx, log, () -> accepts(port));
    }

    /**
     * The template of {@code deploy/nginx/} with its placeholders filled in, and a header the tests need that
     * production does not send: {@code X-Upstream}, the node that answered (node addresses stay inside there).
     */
    static String nginxSite(int listenPort, List<String> upstreams, Path accessLog) throws IOException {
        String servers =
                upstreams.stream().map(address -> "server " + address + ";").collect(Collectors.joining(" "));
        String site = Files.readString(NGINX_TEMPLATE)
                .replace("${LISTEN}", "127.0.0.1:" + listenPort)
                .replace("${UPSTREAM_SERVERS}", servers)
                .replace("${ACCESS_LOG}", "\"" + accessLog + "\"");
        if (site.contains("${")) {
            throw new IllegalStateException(NGINX_TEMPLATE + " has a placeholder the cluster does not fill in");
        }
        String anchor = "    proxy_buffering off;\n";
        if (!site.contains(anchor) || site.contains("X-Upstream")) {
            throw new IllegalStateException(NGINX_TEMPLATE + " changed: say where X-Upstream goes for the tests");
        }
        return site.replace(anchor, anchor + "    add_header X-Upstream $upstream_addr always;\n");
    }

    /**
     * The rest of what nginx needs, all under the cluster's own directories: in the foreground (the cluster holds
     * the master process), with its pid file, temporary files and logs where any user may write them.
     */
    private String nginxMain(Path site) {
        String user = "root".equals(System.getProperty("user.name")) ? "user root;\n" : "";
        return user + """
                daemon off;
                worker_processes 1;
                pid "%1$s/nginx.pid";
                error_log "%2$s/nginx-error.log" notice;
                events {
                    worker_connections 512;
                }
                http {
                    client_body_temp_path "%1$s/client_body";
                    proxy_temp_path "%1$s/proxy";
                    fastcgi_temp_path "%1$s/fastcgi";
                    uwsgi_temp_path "%1$s/uwsgi";
                    scgi_temp_path "%1$s/scgi";
                    include "%3$s";
                }
                """.formatted(workDir, logDir, site);
    }

    private static void awaitReady(String what, Process process, Path log, BooleanSupplier ready)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(READY);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                fail(what + " exited with " + process.exitValue() + ":\n" + tail(log));
            }
            if (ready.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        fail(what + " was not ready within " + READY + ":\n" + tail(log));
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean redisAnswers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            socket.setSoTimeout(1000);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readNBytes(5), StandardCharsets.US_ASCII).equals("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops a process and whatever it started (nginx's workers), SIGTERM first, SIGKILL when that is not enough. */
    private static void stop(Process process) throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS);
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private interface Step {
        void run() throws Exception;
    }

    private static void attempt(List<Throwable> failures, Step step) {
        try {
            step.run();
        } catch (Exception | AssertionError e) {
            failures.add(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    static String nginx() {
        return executable("NGINX_BIN", "nginx", "/usr/sbin/nginx");
    }

    static String redisServer() {
        return executable("REDIS_SERVER", "redis-server", "/usr/bin/redis-server");
    }

    /** What is missing to run a cluster, or null when nothing is. */
    static String missing() {
        if (!Files.isExecutable(Path.of(nginx()))) {
            return "nginx (no program at " + nginx() + ")";
        }
        if (!Files.isExecutable(Path.of(redisServer()))) {
            return "redis-server (no program at " + redisServer() + ")";
        }
        return TestDatabase.serverUnreachable()
                .map(reason -> "a PostgreSQL server (" + reason + ")")
                .orElse(null);
    }

    /** The program named by the environment variable, else the one on the PATH, else the usual Debian path. */
    private static String executable(String variable, String command, String debianPath) {
        String configured = System.getenv(variable);
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of(path.split(File.pathSeparator))
                .filter(directory -> !directory.isBlank())
                .map(directory -> Path.of(directory, command))
                .filter(Files::isExecutable)
                .map(Path::toString)
                .findFirst()
                .orElse(debianPath);
    }
}
