package com.chatreview.lti.platform;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An LTI 1.3 platform (an LMS, as far as a tool can tell) for the tests, served over real HTTP on loopback: its own
 * RSA keys and JWKS, the OIDC authorization endpoint of third-party-initiated login, an OAuth 2 token endpoint taking
 * client credentials with a signed JWT assertion (RFC 7523), the deep linking return, and the Assignment and Grade
 * Services line items and scores, each checking what Moodle checks. Built from the 1EdTech specifications (LTI Core
 * 1.3, the Security Framework, Deep Linking 2.0, AGS 2.0).
 *
 * <p>A test drives a user's browser through {@link #launch} and {@link #deepLinking}, injects faults per endpoint
 * ({@link #inject}) and reads back what arrived: the gradebook ({@link LineItem#scores}), every request received
 * ({@link #exchanges}), the content items returned by deep linking ({@link #deepLinkingReturns}).
 */
public final class EmulatedPlatform implements AutoCloseable {

    /** The platform's endpoints, as faults and the record of requests name them. */
    public enum Endpoint {
        AUTHORIZATION,
        TOKEN,
        JWKS,
        LINE_ITEMS,
        SCORES,
        DEEP_LINKING_RETURN,
        COURSE_PAGE,
        OPENID_CONFIGURATION,
        REGISTRATION
    }

    /** One request the platform received, and the status it answered. */
    public record Exchange(String method, URI uri, Map<String, String> headers, String body, int status) {
        public @Nullable String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /**
     * The tool as registered on the platform (the platform's side of the registration): the client id and the
     * deployment the platform assigned, and the tool's URLs.
     */
    public record Tool(
            String clientId,
            String deploymentId,
            String loginUrl,
            String launchUrl,
            String jwksUrl,
            List<String> redirectUris) {}

    /** What a deep linking response brought: the placements it created, and its messages to the user. */
    public record DeepLinkingReturn(
            List<ResourceLink> links,
            @Nullable String message,
            @Nullable String error) {}

    record Answer(int status, String contentType, String body, Map<String, String> headers) {
        static Answer json(int status, String contentType, JsonNode body) {
            return new Answer(status, contentType, body.toString(), Map.of());
        }

        static Answer text(int status, String body) {
            return new Answer(status, "text/plain; charset=utf-8", body, Map.of());
        }

        static Answer html(int status, String body) {
            return new Answer(status, "text/html; charset=utf-8", body, Map.of());
        }
    }

    private record AccessToken(String clientId, Set<String> scopes, Instant expiresAt) {}

    private record PendingDeepLinking(Tool tool, Course course) {}

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration SKEW = Duration.ofSeconds(60);
    /** Line items a page of the container holds unless the request's {@code limit} says otherwise. */
    static final int CONTAINER_PAGE = 10;

    private static final Pattern LINE_ITEMS_PATH =
            Pattern.compile("/courses/([^/]+)/lineitems(?:/(\\d+)/lineitem(/scores)?)?");

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicInteger sequence = new AtomicInteger();
    /** The last key signs; the others are still published (rotation with overlap). */
    private final List<RSAKey> keys = new CopyOnWriteArrayList<>();

    private final Map<String, Tool> tools = new ConcurrentHashMap<>();
    private final Map<String, Course> courses = new ConcurrentHashMap<>();
    private final Map<String, Launch> pendingLaunches = new ConcurrentHashMap<>();
    private final Map<String, PendingDeepLinking> pendingDeepLinking = new ConcurrentHashMap<>();
    private final Map<String, AccessToken> tokens = new ConcurrentHashMap<>();
    private final Set<String> assertionIds = ConcurrentHashMap.newKeySet();
    private final Map<Endpoint, ConcurrentLinkedQueue<Fault>> faults = new ConcurrentHashMap<>();
    private final Map<Endpoint, List<Exchange>> exchanges = new ConcurrentHashMap<>();
    private final List<DeepLinkingReturn> deepLinkingReturns = new CopyOnWriteArrayList<>();
    private final Map<Endpoint, AtomicInteger> arrivals = new ConcurrentHashMap<>();
    private final Set<String> registrationTokens = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.ConcurrentLinkedDeque<Tool> dynamicallyRegistered =
            new java.util.concurrent.ConcurrentLinkedDeque<>();
    private volatile Duration tokenLifetime = Duration.ofHours(1);

    public EmulatedPlatform() throws IOException {
        keys.add(newKey());
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::serve);
        server.start();
    }

    public String issuer() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public String authorizationUrl() {
        return issuer() + "/auth";
    }

    public String tokenUrl() {
        return issuer() + "/token";
    }

    public String jwksUrl() {
        return issuer() + "/jwks";
    }

    public String deepLinkingReturnUrl() {
        return issuer() + "/deep-linking-return";
    }

    /** Moodle's tool type id, carried in the query of every AGS URL: a tool must keep it when it adds a path. */
    int typeId() {
        return 7;
    }

    int next() {
        return sequence.incrementAndGet();
    }

    // --- what the platform's administrator and teachers set up ---

    /** Registers a tool, as an administrator does by hand: the platform assigns its client id and deployment. */
    public Tool register(String loginUrl, String launchUrl, String jwksUrl) {
        Tool tool = new Tool(
                "client-" + UUID.randomUUID(),
                "deployment-" + next(),
                loginUrl,
                launchUrl,
                jwksUrl,
                List.of(launchUrl));
        tools.put(tool.clientId(), tool);
        return tool;
    }

    /**
     * Registers a tool under a client id the test chooses, as an administrator of this platform may type any: an
     * attacker's platform naming another school's client.
     */
    public Tool registerAs(String clientId, String loginUrl, String launchUrl, String jwksUrl) {
        Tool tool = new Tool(clientId, "deployment-" + next(), loginUrl, launchUrl, jwksUrl, List.of(launchUrl));
        tools.put(tool.clientId(), tool);
        return tool;
    }

    /**
     * The administrator enters the tool's JWKS URL for this registration (the tool tells it once the platform is
     * registered there): from now on the tool's JWTs are checked against the keys published there.
     */
    public Tool useJwks(Tool tool, String jwksUrl) {
        Tool changed = new Tool(
                tool.clientId(), tool.deploymentId(), tool.loginUrl(), tool.launchUrl(), jwksUrl, tool.redirectUris());
        tools.put(changed.clientId(), changed);
        return changed;
    }

    /** What a dynamic registration came to: the tool's page, and the tool as the platform registered it. */
    public record DynamicRegistration(
            HttpResponse<String> page, @Nullable Tool tool) {}

    /**
     * An administrator of the platform registers the tool by its registration URL (LTI Dynamic Registration 1.0): the
     * platform opens it with {@code openid_configuration} and a single-use {@code registration_token}, the tool reads
     * the configuration and posts its own to the registration endpoint, which registers it.
     */
    public DynamicRegistration registerDynamically(String registrationUrl) {
        String token = "registration-" + UUID.randomUUID();
        registrationTokens.add(token);
        int before = tools.size();
        URI opened = URI.create(registrationUrl + (registrationUrl.contains("?") ? "&" : "?") + "openid_configuration="
                + URLEncoder.encode(issuer() + "/.well-known/openid-configuration", StandardCharsets.UTF_8)
                + "&registration_token=" + token);
        HttpResponse<String> page =
                Launch.send(java.net.http.HttpRequest.newBuilder(opened).GET());
        Tool registered = tools.size() > before ? dynamicallyRegistered.peekLast() : null;
        return new DynamicRegistration(page, registered);
    }

    private Answer openidConfiguration() {
        ObjectNode configuration = JSON.createObjectNode()
                .put("issuer", issuer())
                .put("authorization_endpoint", authorizationUrl())
                .put("token_endpoint", tokenUrl())
                .put("token_endpoint_auth_methods_supported", "private_key_jwt")
                .put("jwks_uri", jwksUrl())
                .put("registration_endpoint", issuer() + "/register");
        configuration
                .putArray("scopes_supported")
                .add("openid")
                .add(Lti.SCOPE_LINE_ITEM)
                .add(Lti.SCOPE_SCORE);
        configuration.putArray("response_types_supported").add("id_token");
        configuration.putArray("id_token_signing_alg_values_supported").add("RS256");
        configuration
                .putObject("https://purl.imsglobal.org/spec/lti-platform-configuration")
                .put("product_family_code", "emulator")
                .put("version", "1.0");
        return Answer.json(200, "application/json", configuration);
    }

    /** The registration endpoint: checks the tool's configuration as the spec has it, and registers the tool. */
    private Answer registration(Request request) {
        String authorization = request.header("authorization");
        String token = authorization != null && authorization.startsWith("Bearer ") ? authorization.substring(7) : "";
        if (!registrationTokens.remove(token)) {
            return Answer.text(401, "the registration token is missing, unknown or used");
        }
        JsonNode body;
        try {
            body = JSON.readTree(request.body());
        } catch (RuntimeException e) {
            return Answer.text(400, "the body is not JSON");
        }
        JsonNode configuration = body.get("https://purl.imsglobal.org/spec/lti-tool-configuration");
        List<String> problems = new ArrayList<>();
        if (!"web".equals(text(body, "application_type"))) {
            problems.add("application_type must be web");
        }
        if (!strings(body.get("response_types")).contains("id_token")) {
            problems.add("response_types must hold id_token");
        }
        if (!strings(body.get("grant_types")).containsAll(List.of("implicit", "client_credentials"))) {
            problems.add("grant_types must hold implicit and client_credentials");
        }
        if (!"private_key_jwt".equals(text(body, "token_endpoint_auth_method"))) {
            problems.add("token_endpoint_auth_method must be private_key_jwt");
        }
        if (text(body, "initiate_login_uri") == null || text(body, "jwks_uri") == null) {
            problems.add("initiate_login_uri and jwks_uri are required");
        }
        if (strings(body.get("redirect_uris")).isEmpty()) {
            problems.add("redirect_uris is required");
        }
        if (configuration == null
                || text(configuration, "target_link_uri") == null
                || text(configuration, "domain") == null) {
            problems.add("the tool configuration needs domain and target_link_uri");
        }
        if (!problems.isEmpty()) {
            return Answer.text(400, String.join("; ", problems));
        }
        Tool tool = new Tool(
                "client-" + UUID.randomUUID(),
                "deployment-" + next(),
                Objects.requireNonNull(text(body, "initiate_login_uri")),
                Objects.requireNonNull(text(Objects.requireNonNull(configuration), "target_link_uri")),
                Objects.requireNonNull(text(body, "jwks_uri")),
                strings(body.get("redirect_uris")));
        tools.put(tool.clientId(), tool);
        dynamicallyRegistered.add(tool);
        ObjectNode answer = ((ObjectNode) body.deepCopy()).put("client_id", tool.clientId());
        ((ObjectNode) answer.get("https://purl.imsglobal.org/spec/lti-tool-configuration"))
                .put("deployment_id", tool.deploymentId());
        return Answer.json(200, "application/json", answer);
    }

    private static List<String> strings(@Nullable JsonNode array) {
        List<String> values = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(value -> values.add(value.asString()));
        }
        return values;
    }

    /** What the tool must be told of this platform for the tool's registration (its fields named as the tool's API). */
    public Map<String, Object> registrationFor(Tool tool) {
        Map<String, Object> registration = new LinkedHashMap<>();
        registration.put("issuer", issuer());
        registration.put("client_id", tool.clientId());
        registration.put("deployment_ids", List.of(tool.deploymentId()));
        registration.put("auth_login_url", authorizationUrl());
        registration.put("auth_token_url", tokenUrl());
        registration.put("jwks_url", jwksUrl());
        return registration;
    }

    public Course course(String label, String title) {
        Course course = new Course(this, "course-" + next(), label, title);
        courses.put(course.id(), course);
        return course;
    }

    /** A new signing key; the previous ones stay published until {@link #retireOldKeys}. */
    public RSAKey rotateKey() {
        RSAKey key = newKey();
        keys.add(key);
        return key;
    }

    public void retireOldKeys() {
        keys.removeIf(key -> key != keys.getLast());
    }

    RSAKey signingKey() {
        return keys.getLast();
    }

    /** Signs the claims with the platform's key, RS256, as it does, but names no key ({@code kid}) in the header. */
    public String signedNamingNoKey(JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).build(), claims);
        try {
            jwt.sign(new RSASSASigner(signingKey()));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    /** The public half of the key the platform signs with, as its JWKS publishes it. */
    public RSAKey publicSigningKey() {
        return signingKey().toPublicJWK();
    }

    /** A key of an impostor under the {@code kid} of the platform's signing key: its signatures do not verify. */
    public RSAKey impostorKey() {
        try {
            return new RSAKeyGenerator(2048)
                    .keyID(signingKey().getKeyID())
                    .algorithm(JWSAlgorithm.RS256)
                    .generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A key the platform never published. */
    public static RSAKey foreignKey() {
        return newKey();
    }

    /** How long the access tokens issued from now on are valid. */
    public void tokenLifetime(Duration lifetime) {
        this.tokenLifetime = lifetime;
    }

    /** The next requests to the endpoint meet these faults, one each, in order. */
    public void inject(Endpoint endpoint, Fault... faults) {
        this.faults
                .computeIfAbsent(endpoint, e -> new ConcurrentLinkedQueue<>())
                .addAll(Arrays.asList(faults));
    }

    /** Every request the endpoint received, refused ones too, in order. */
    /**
     * How many requests reached the endpoint, counted as each arrives (an exchange is recorded once answered): a
     * request waiting out a slow fault is counted already.
     */
    public int arrivals(Endpoint endpoint) {
        AtomicInteger arrived = arrivals.get(endpoint);
        return arrived == null ? 0 : arrived.get();
    }

    public List<Exchange> exchanges(Endpoint endpoint) {
        return List.copyOf(exchanges.getOrDefault(endpoint, List.of()));
    }

    public List<DeepLinkingReturn> deepLinkingReturns() {
        return List.copyOf(deepLinkingReturns);
    }

    /** A user's launch of a placement: run it with {@link Launch#run}, after tampering with it if the test wants. */
    public Launch launch(Tool tool, Course course, Member member, ResourceLink link) {
        return new Launch(this, tool, course, member, Lti.RESOURCE_LINK_REQUEST, link);
    }

    /** An instructor's deep linking request from the course: the tool answers with the content items to place. */
    public Launch deepLinking(Tool tool, Course course, Member instructor) {
        return new Launch(this, tool, course, instructor, Lti.DEEP_LINKING_REQUEST, null);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        http.close();
    }

    // --- the endpoints ---

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Map<String, String> headers = new HashMap<>();
            exchange.getRequestHeaders()
                    .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.getFirst()));
            Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI(), headers, body);
            Endpoint endpoint = endpointOf(request.uri().getPath());
            Answer answer;
            if (endpoint == null) {
                answer = Answer.text(404, "no such endpoint");
            } else {
                arrivals.computeIfAbsent(endpoint, e -> new AtomicInteger()).incrementAndGet();
                Fault fault = new Queue(faults.get(endpoint)).poll();
                Answer faulty = fault == null ? null : applyFault(fault, request);
                answer = faulty != null ? faulty : handle(endpoint, request);
                if (fault != null && fault.padding() > 0) {
                    answer = new Answer(
                            answer.status(),
                            answer.contentType(),
                            answer.body() + " ".repeat(fault.padding()),
                            answer.headers());
                }
                exchanges
                        .computeIfAbsent(endpoint, e -> new CopyOnWriteArrayList<>())
                        .add(new Exchange(request.method(), request.uri(), headers, body, answer.status()));
            }
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", answer.contentType());
            answer.headers().forEach(exchange.getResponseHeaders()::set);
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
        }
    }

    record Request(String method, URI uri, Map<String, String> headers, String body) {
        @Nullable
        String header(String name) {
            return headers.get(name);
        }

        /** The query's parameters, and a form body's. */
        Map<String, String> parameters() {
            Map<String, String> parameters = new LinkedHashMap<>(decode(uri.getRawQuery()));
            String contentType = Objects.requireNonNullElse(header("content-type"), "");
            if (contentType.startsWith("application/x-www-form-urlencoded")) {
                parameters.putAll(decode(body));
            }
            return parameters;
        }

        /** The media type of the body, without its parameters. */
        String mediaType() {
            String contentType = Objects.requireNonNullElse(header("content-type"), "");
            int semicolon = contentType.indexOf(';');
            return (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
                    .trim()
                    .toLowerCase(Locale.ROOT);
        }

        private static Map<String, String> decode(@Nullable String encoded) {
            Map<String, String> values = new LinkedHashMap<>();
            if (encoded == null || encoded.isEmpty()) {
                return values;
            }
            for (String pair : encoded.split("&")) {
                int equals = pair.indexOf('=');
                String name = equals < 0 ? pair : pair.substring(0, equals);
                String value = equals < 0 ? "" : pair.substring(equals + 1);
                values.put(
                        URLDecoder.decode(name, StandardCharsets.UTF_8),
                        URLDecoder.decode(value, StandardCharsets.UTF_8));
            }
            return values;
        }
    }

    private static @Nullable Endpoint endpointOf(String path) {
        return switch (path) {
            case "/auth" -> Endpoint.AUTHORIZATION;
            case "/token" -> Endpoint.TOKEN;
            case "/jwks" -> Endpoint.JWKS;
            case "/deep-linking-return" -> Endpoint.DEEP_LINKING_RETURN;
            case "/.well-known/openid-configuration" -> Endpoint.OPENID_CONFIGURATION;
            case "/register" -> Endpoint.REGISTRATION;
            default -> {
                if (path.startsWith("/course-page/")
                        || path.startsWith("/launch-frame/")
                        || path.startsWith("/storage-frame/")) {
                    yield Endpoint.COURSE_PAGE;
                }
                Matcher matcher = LINE_ITEMS_PATH.matcher(path);
                if (!matcher.matches()) {
                    yield null;
                }
                yield matcher.group(3) != null ? Endpoint.SCORES : Endpoint.LINE_ITEMS;
            }
        };
    }

    private @Nullable Answer applyFault(Fault fault, Request request) {
        if (!fault.delay().isZero()) {
            try {
                Thread.sleep(fault.delay());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (fault.expireToken()) {
            String token = bearerToken(request);
            if (token != null) {
                tokens.remove(token);
            }
            return invalidToken("the access token expired");
        }
        if (fault.status() > 0) {
            return Answer.text(fault.status(), "injected fault: " + fault.status());
        }
        return null;
    }

    /** A null-safe view of one endpoint's queue of faults. */
    private record Queue(@Nullable ConcurrentLinkedQueue<Fault> faults) {
        @Nullable
        Fault poll() {
            return faults == null ? null : faults.poll();
        }
    }

    private Answer handle(Endpoint endpoint, Request request) {
        return switch (endpoint) {
            case JWKS ->
                Answer.json(200, "application/json", JSON.readTree(publicKeys().toString()));
            case AUTHORIZATION -> authorize(request);
            case TOKEN -> issueToken(request);
            case DEEP_LINKING_RETURN -> returnFromDeepLinking(request);
            case LINE_ITEMS -> lineItems(request);
            case SCORES -> scores(request);
            case COURSE_PAGE -> coursePage(request);
            case OPENID_CONFIGURATION -> openidConfiguration();
            case REGISTRATION -> registration(request);
        };
    }

    JWKSet publicKeys() {
        return new JWKSet(keys.stream().map(key -> (JWK) key.toPublicJWK()).toList());
    }

    // --- OIDC authentication request (third-party-initiated login, step 2) ---

    private Answer authorize(Request request) {
        Map<String, String> parameters = request.parameters();
        Tool tool = tools.get(parameters.getOrDefault("client_id", ""));
        if (tool == null) {
            return Answer.html(400, "<p>Unknown client_id.</p>");
        }
        String redirectUri = parameters.getOrDefault("redirect_uri", "");
        if (!tool.redirectUris().contains(redirectUri)) {
            return Answer.html(400, "<p>The redirect_uri is not one registered for the tool.</p>");
        }
        String state = parameters.get("state");
        String error = authenticationError(parameters);
        Launch launch = error == null ? pendingLaunches.remove(parameters.get("lti_message_hint")) : null;
        if (error == null && launch == null) {
            error = "the lti_message_hint is unknown or was used already";
        }
        if (error == null
                && !Objects.equals(parameters.get("login_hint"), launch.member().sub())) {
            error = "the login_hint is not the user who launched";
        }
        Map<String, String> fields = new LinkedHashMap<>();
        if (error != null || launch == null) {
            fields.put("error", "invalid_request");
            fields.put("error_description", Objects.requireNonNullElse(error, "invalid request"));
        } else {
            fields.put("id_token", idToken(launch, parameters.getOrDefault("nonce", "")));
        }
        if (state != null) {
            fields.put("state", state);
        }
        return Answer.html(200, new HtmlForm(URI.create(redirectUri), fields).autoSubmittingPage());
    }

    private static @Nullable String authenticationError(Map<String, String> parameters) {
        if (!"openid".equals(parameters.get("scope"))) {
            return "scope must be openid";
        }
        if (!"id_token".equals(parameters.get("response_type"))) {
            return "response_type must be id_token";
        }
        if (!"form_post".equals(parameters.get("response_mode"))) {
            return "response_mode must be form_post";
        }
        if (!"none".equals(parameters.get("prompt"))) {
            return "prompt must be none";
        }
        if (parameters.getOrDefault("nonce", "").isBlank()) {
            return "a nonce is required";
        }
        return null;
    }

    private String idToken(Launch launch, String nonce) {
        Tool tool = launch.tool();
        Member member = launch.member();
        Course course = launch.course();
        Instant now = Instant.now();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(issuer())
                .audience(tool.clientId())
                .claim("azp", tool.clientId())
                .subject(member.sub())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(60)))
                .claim("nonce", nonce)
                .claim("name", member.name())
                .claim("given_name", member.givenName())
                .claim("family_name", member.familyName())
                .claim("email", member.email())
                .claim("locale", "en-US")
                .claim(Lti.MESSAGE_TYPE, launch.messageType())
                .claim(Lti.VERSION, "1.3.0")
                .claim(Lti.DEPLOYMENT_ID, tool.deploymentId())
                .claim(Lti.ROLES, member.roles())
                .claim(
                        Lti.CONTEXT,
                        Map.of(
                                "id", course.id(),
                                "label", course.label(),
                                "title", course.title(),
                                "type", List.of(Lti.COURSE_OFFERING)))
                .claim(
                        Lti.TOOL_PLATFORM,
                        Map.of(
                                "guid", issuer(),
                                "name", "Platform emulator",
                                "product_family_code", "emulator",
                                "version", "1.0"))
                .claim(
                        Lti.LAUNCH_PRESENTATION,
                        // the LMS's site, where the user is: under another name than its endpoints, as the course
                        // page that frames the tool is (Canvas: a school's domain, the issuer canvas.instructure.com)
                        Map.of(
                                "document_target",
                                "iframe",
                                "return_url",
                                "http://localhost:" + server.getAddress().getPort() + "/courses/" + course.id()));
        Map<String, Object> ags = new LinkedHashMap<>();
        ags.put("scope", List.of(Lti.SCOPE_LINE_ITEM, Lti.SCOPE_LINE_ITEM_READONLY, Lti.SCOPE_SCORE));
        ags.put("lineitems", course.lineItemsUrl());
        ResourceLink link = launch.link();
        if (link != null) {
            claims.claim(Lti.TARGET_LINK_URI, Objects.requireNonNullElse(link.url(), tool.launchUrl()));
            claims.claim(Lti.RESOURCE_LINK, Map.of("id", link.id(), "title", link.title()));
            if (!link.custom().isEmpty()) {
                claims.claim(Lti.CUSTOM, link.custom());
            }
            if (link.lineItem() != null) {
                ags.put("lineitem", link.lineItem().id());
            }
        } else {
            String data = "dl-" + UUID.randomUUID();
            pendingDeepLinking.put(data, new PendingDeepLinking(tool, course));
            claims.claim(Lti.TARGET_LINK_URI, tool.launchUrl());
            Map<String, Object> settings = new LinkedHashMap<>();
            settings.put("deep_link_return_url", deepLinkingReturnUrl());
            settings.put("accept_types", List.of("ltiResourceLink"));
            settings.put("accept_presentation_document_targets", List.of("iframe", "window"));
            settings.put("accept_multiple", true);
            settings.put("auto_create", true);
            settings.put("title", "Add an activity");
            settings.put("data", data);
            claims.claim(Lti.DEEP_LINKING_SETTINGS, settings);
        }
        claims.claim(Lti.AGS_ENDPOINT, ags);
        launch.tampering().accept(claims);
        if (launch.encoding() != null) {
            return launch.encoding().apply(claims.build());
        }
        RSAKey key = Objects.requireNonNullElse(launch.signingKey(), signingKey());
        return sign(claims.build(), key);
    }

    static String sign(JWTClaimsSet claims, RSAKey key) {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID(key.getKeyID())
                        .type(JOSEObjectType.JWT)
                        .build(),
                claims);
        try {
            jwt.sign(new RSASSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    static RSAKey newKey() {
        try {
            return new RSAKeyGenerator(2048)
                    .keyID("platform-key-" + UUID.randomUUID())
                    .algorithm(JWSAlgorithm.RS256)
                    .generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    // --- a JWT the tool signed: the client assertion, the deep linking response ---

    /** The tool's JWT, its signature checked with the key its JWKS publishes under the JWT's {@code kid}. */
    private JWTClaimsSet verifiedByTool(Tool tool, String serialized) throws RefusedJwt {
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(serialized);
        } catch (ParseException e) {
            throw new RefusedJwt("not a signed JWT");
        }
        if (!JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm())) {
            throw new RefusedJwt("the JWT must be signed with RS256");
        }
        String kid = jwt.getHeader().getKeyID();
        if (kid == null) {
            throw new RefusedJwt("the JWT's header has no kid");
        }
        JWK key;
        try {
            String body = http.send(
                            HttpRequest.newBuilder(URI.create(tool.jwksUrl()))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            key = JWKSet.parse(body).getKeyByKeyId(kid);
        } catch (IOException | ParseException e) {
            throw new RefusedJwt("the tool's JWKS could not be read: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RefusedJwt("interrupted");
        }
        if (!(key instanceof RSAKey rsa)) {
            throw new RefusedJwt("the tool's JWKS has no RSA key " + kid);
        }
        try {
            if (!jwt.verify(new RSASSAVerifier(rsa))) {
                throw new RefusedJwt("the JWT's signature does not verify");
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            Instant now = Instant.now();
            if (claims.getExpirationTime() == null
                    || claims.getExpirationTime().toInstant().isBefore(now.minus(SKEW))) {
                throw new RefusedJwt("the JWT expired");
            }
            if (claims.getIssueTime() == null
                    || claims.getIssueTime().toInstant().isAfter(now.plus(SKEW))) {
                throw new RefusedJwt("the JWT's iat is missing or in the future");
            }
            return claims;
        } catch (JOSEException | ParseException e) {
            throw new RefusedJwt(e.getMessage());
        }
    }

    private static final class RefusedJwt extends Exception {
        RefusedJwt(String reason) {
            super(reason);
        }
    }

    // --- the token endpoint: client credentials, the client authenticated by a JWT (RFC 7523) ---

    private Answer issueToken(Request request) {
        if (!"POST".equals(request.method())) {
            return Answer.text(405, "POST only");
        }
        Map<String, String> parameters = request.parameters();
        if (!"client_credentials".equals(parameters.get("grant_type"))) {
            return oauthError(400, "unsupported_grant_type", "grant_type must be client_credentials");
        }
        if (!Lti.JWT_BEARER.equals(parameters.get("client_assertion_type"))) {
            return oauthError(400, "invalid_request", "client_assertion_type must be jwt-bearer");
        }
        String assertion = parameters.get("client_assertion");
        if (assertion == null) {
            return oauthError(400, "invalid_request", "client_assertion is missing");
        }
        String issuer;
        try {
            issuer = SignedJWT.parse(assertion).getJWTClaimsSet().getIssuer();
        } catch (ParseException e) {
            return oauthError(400, "invalid_request", "client_assertion is not a JWT");
        }
        Tool tool = issuer == null ? null : tools.get(issuer);
        if (tool == null) {
            return oauthError(401, "invalid_client", "the assertion's iss is no registered client");
        }
        JWTClaimsSet claims;
        try {
            claims = verifiedByTool(tool, assertion);
        } catch (RefusedJwt e) {
            return oauthError(401, "invalid_client", e.getMessage());
        }
        if (!tool.clientId().equals(claims.getSubject())) {
            return oauthError(401, "invalid_client", "the assertion's sub must be the client id");
        }
        if (claims.getAudience() == null || !claims.getAudience().contains(tokenUrl())) {
            return oauthError(401, "invalid_client", "the assertion's aud must be the token endpoint");
        }
        String jti = claims.getJWTID();
        if (jti == null || !assertionIds.add(jti)) {
            return oauthError(401, "invalid_client", "the assertion's jti is missing or was used already");
        }
        List<String> scopes =
                List.of(parameters.getOrDefault("scope", "").trim().split("\\s+"));
        if (scopes.isEmpty() || scopes.getFirst().isEmpty() || !Lti.AGS_SCOPES.containsAll(scopes)) {
            return oauthError(400, "invalid_scope", "the scope must be AGS scopes");
        }
        String token = "token-" + UUID.randomUUID();
        Duration lifetime = tokenLifetime;
        tokens.put(
                token,
                new AccessToken(
                        tool.clientId(), Set.copyOf(scopes), Instant.now().plus(lifetime)));
        ObjectNode body = JSON.createObjectNode()
                .put("access_token", token)
                .put("token_type", "Bearer")
                .put("expires_in", lifetime.toSeconds())
                .put("scope", String.join(" ", scopes));
        return new Answer(200, "application/json", body.toString(), Map.of("Cache-Control", "no-store"));
    }

    private static Answer oauthError(int status, String error, String description) {
        ObjectNode body = JSON.createObjectNode().put("error", error).put("error_description", description);
        return Answer.json(status, "application/json", body);
    }

    private static @Nullable String bearerToken(Request request) {
        String authorization = request.header("authorization");
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return authorization.substring(7).trim();
    }

    /** Null when the request's token is valid and holds one of the scopes; else the answer that refuses it. */
    private @Nullable Answer unauthorized(Request request, String... anyOfScopes) {
        String token = bearerToken(request);
        AccessToken granted = token == null ? null : tokens.get(token);
        if (granted == null) {
            return invalidToken("no valid access token");
        }
        if (granted.expiresAt().isBefore(Instant.now())) {
            return invalidToken("the access token expired");
        }
        for (String scope : anyOfScopes) {
            if (granted.scopes().contains(scope)) {
                return null;
            }
        }
        return new Answer(
                403,
                "text/plain; charset=utf-8",
                "the access token lacks the scope",
                Map.of("WWW-Authenticate", "Bearer error=\"insufficient_scope\""));
    }

    private static Answer invalidToken(String reason) {
        return new Answer(
                401,
                "text/plain; charset=utf-8",
                reason,
                Map.of("WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\"" + reason + "\""));
    }

    // --- AGS line items ---

    private Answer lineItems(Request request) {
        Matcher path = LINE_ITEMS_PATH.matcher(request.uri().getPath());
        if (!path.matches()) {
            return Answer.text(404, "no such path");
        }
        Course course = courses.get(path.group(1));
        if (course == null) {
            return Answer.text(404, "Not Found: Course doesn't exist.");
        }
        String number = path.group(2);
        Set<String> methods = number == null ? Set.of("GET", "POST") : Set.of("GET", "PUT", "DELETE");
        if (!methods.contains(request.method())) {
            return Answer.text(405, "allowed: " + methods);
        }
        boolean reading = "GET".equals(request.method());
        Answer refused = reading
                ? unauthorized(request, Lti.SCOPE_LINE_ITEM, Lti.SCOPE_LINE_ITEM_READONLY)
                : unauthorized(request, Lti.SCOPE_LINE_ITEM);
        if (refused != null) {
            return refused;
        }
        if (number == null) {
            return switch (request.method()) {
                case "GET" -> container(course, request);
                case "POST" -> createLineItem(course, request);
                default -> Answer.text(405, "GET or POST");
            };
        }
        LineItem item = course.lineItem(number);
        if (item == null) {
            return Answer.text(404, "Not Found: Grade item doesn't exist.");
        }
        return switch (request.method()) {
            case "GET" -> Answer.json(200, Lti.LINE_ITEM_TYPE, json(item));
            case "PUT" -> updateLineItem(item, request);
            case "DELETE" -> course.removeLineItem(number) ? Answer.text(204, "") : Answer.text(404, "gone");
            default -> Answer.text(405, "GET, PUT or DELETE");
        };
    }

    /** The container's line items, filtered, a page at a time as Canvas gives them (a {@code Link} to the next). */
    private Answer container(Course course, Request request) {
        Map<String, String> filters = request.parameters();
        List<LineItem> matching = course.lineItems().stream()
                .filter(item -> matches(filters.get("resource_link_id"), item.resourceLinkId())
                        && matches(filters.get("resource_id"), item.resourceId())
                        && matches(filters.get("tag"), item.tag()))
                .toList();
        int limit = positive(filters.get("limit"), CONTAINER_PAGE);
        int page = positive(filters.get("page"), 1);
        int from = (int) Math.min(matching.size(), (long) (page - 1) * limit);
        int to = Math.min(matching.size(), from + limit);
        ArrayNode items = JSON.createArrayNode();
        matching.subList(from, to).forEach(item -> items.add(json(item)));
        if (to == matching.size()) {
            return Answer.json(200, Lti.LINE_ITEM_CONTAINER_TYPE, items);
        }
        Map<String, String> next =
                new LinkedHashMap<>(Request.decode(request.uri().getRawQuery()));
        next.put("page", String.valueOf(page + 1));
        String query = next.entrySet().stream()
                .map(parameter ->
                        parameter.getKey() + "=" + URLEncoder.encode(parameter.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return new Answer(
                200,
                Lti.LINE_ITEM_CONTAINER_TYPE,
                items.toString(),
                Map.of("Link", "<" + issuer() + request.uri().getRawPath() + "?" + query + ">; rel=\"next\""));
    }

    private static int positive(@Nullable String value, int otherwise) {
        try {
            return value == null ? otherwise : Math.max(1, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static boolean matches(@Nullable String filter, @Nullable String value) {
        return filter == null || filter.equals(value);
    }

    private Answer createLineItem(Course course, Request request) {
        if (!Lti.LINE_ITEM_TYPE.equals(request.mediaType())) {
            return Answer.text(400, "the Content-Type must be " + Lti.LINE_ITEM_TYPE);
        }
        JsonNode body;
        try {
            body = JSON.readTree(request.body());
        } catch (JacksonException e) {
            return Answer.text(400, "Incorrect JSON");
        }
        String invalid = invalidLineItem(course, body);
        if (invalid != null) {
            return Answer.text(400, invalid);
        }
        LineItem item = course.addLineItem(
                body.get("label").asString(),
                body.get("scoreMaximum").doubleValue(),
                text(body, "resourceId"),
                text(body, "tag"),
                text(body, "resourceLinkId"));
        return Answer.json(201, Lti.LINE_ITEM_TYPE, json(item));
    }

    private Answer updateLineItem(LineItem item, Request request) {
        if (!Lti.LINE_ITEM_TYPE.equals(request.mediaType())) {
            return Answer.text(400, "the Content-Type must be " + Lti.LINE_ITEM_TYPE);
        }
        JsonNode body;
        try {
            body = JSON.readTree(request.body());
        } catch (JacksonException e) {
            return Answer.text(400, "Incorrect JSON");
        }
        String invalid = invalidLineItem(item.course(), body);
        if (invalid != null) {
            return Answer.text(400, invalid);
        }
        item.update(
                body.get("label").asString(),
                body.get("scoreMaximum").doubleValue(),
                text(body, "resourceId"),
                text(body, "tag"));
        return Answer.json(200, Lti.LINE_ITEM_TYPE, json(item));
    }

    private static @Nullable String invalidLineItem(Course course, JsonNode body) {
        if (!body.isObject()) {
            return "Incorrect JSON: a line item is an object";
        }
        JsonNode label = body.get("label");
        if (label == null || !label.isString() || label.asString().isBlank()) {
            return "Incorrect JSON: label is required";
        }
        JsonNode maximum = body.get("scoreMaximum");
        if (maximum == null || !maximum.isNumber() || maximum.doubleValue() <= 0) {
            return "Incorrect JSON: scoreMaximum must be a number above 0";
        }
        String linkId = text(body, "resourceLinkId");
        if (linkId != null && !course.hasLink(linkId)) {
            return "Incorrect JSON: no resource link " + linkId + " in the course";
        }
        return null;
    }

    private static @Nullable String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || !value.isString() ? null : value.asString();
    }

    private static ObjectNode json(LineItem item) {
        ObjectNode node = JSON.createObjectNode()
                .put("id", item.id())
                .put("label", item.label())
                .put("scoreMaximum", item.scoreMaximum());
        if (item.resourceId() != null) {
            node.put("resourceId", item.resourceId());
        }
        if (item.tag() != null) {
            node.put("tag", item.tag());
        }
        if (item.resourceLinkId() != null) {
            node.put("resourceLinkId", item.resourceLinkId());
        }
        return node;
    }

    // --- AGS scores ---

    private Answer scores(Request request) {
        Matcher path = LINE_ITEMS_PATH.matcher(request.uri().getPath());
        if (!path.matches()) {
            return Answer.text(404, "no such path");
        }
        if (!"POST".equals(request.method())) {
            return Answer.text(405, "GET requests are not allowed.");
        }
        if (!String.valueOf(typeId()).equals(request.parameters().get("type_id"))) {
            return Answer.text(400, "the type_id of the line item's URL is missing: scores go before its query");
        }
        Answer refused = unauthorized(request, Lti.SCOPE_SCORE);
        if (refused != null) {
            return refused;
        }
        Course course = courses.get(path.group(1));
        if (course == null) {
            return Answer.text(404, "Not Found: Course doesn't exist.");
        }
        LineItem item = course.lineItem(path.group(2));
        if (item == null) {
            return Answer.text(404, "Not Found: Grade item doesn't exist.");
        }
        if (!Lti.SCORE_TYPE.equals(request.mediaType())) {
            return Answer.text(400, "the Content-Type must be " + Lti.SCORE_TYPE);
        }
        JsonNode body;
        try {
            body = JSON.readTree(request.body());
        } catch (JacksonException e) {
            return Answer.text(400, "Incorrect score received: not JSON");
        }
        String invalid = invalidScore(course, body);
        if (invalid != null) {
            return Answer.text(400, "Incorrect score received: " + invalid);
        }
        Score score = new Score(
                body.get("userId").asString(),
                number(body, "scoreGiven"),
                number(body, "scoreMaximum"),
                text(body, "comment"),
                body.get("activityProgress").asString(),
                body.get("gradingProgress").asString(),
                OffsetDateTime.parse(body.get("timestamp").asString()),
                request.body());
        if (!item.accept(score)) {
            return Answer.text(409, "Refusing score with an earlier timestamp for item and user");
        }
        return Answer.text(200, "");
    }

    private static @Nullable String invalidScore(Course course, JsonNode body) {
        if (!body.isObject()) {
            return "a score is an object";
        }
        String userId = text(body, "userId");
        if (userId == null || userId.isBlank()) {
            return "userId is required";
        }
        String timestamp = text(body, "timestamp");
        if (timestamp == null) {
            return "timestamp is required";
        }
        try {
            OffsetDateTime.parse(timestamp);
        } catch (DateTimeParseException e) {
            return "timestamp must be ISO 8601 with a time zone offset";
        }
        if (!Lti.ACTIVITY_PROGRESS.contains(Objects.requireNonNullElse(text(body, "activityProgress"), ""))) {
            return "activityProgress must be one of " + Lti.ACTIVITY_PROGRESS;
        }
        if (!Lti.GRADING_PROGRESS.contains(Objects.requireNonNullElse(text(body, "gradingProgress"), ""))) {
            return "gradingProgress must be one of " + Lti.GRADING_PROGRESS;
        }
        JsonNode given = body.get("scoreGiven");
        JsonNode maximum = body.get("scoreMaximum");
        if (given != null && (!given.isNumber() || given.doubleValue() < 0)) {
            return "scoreGiven must be a number, 0 or more";
        }
        if (maximum != null && (!maximum.isNumber() || maximum.doubleValue() <= 0)) {
            return "scoreMaximum must be a number above 0";
        }
        if (given != null && maximum == null) {
            return "scoreMaximum is required with scoreGiven";
        }
        if (course.member(userId).filter(Member::learner).isEmpty()) {
            return "the user is not a learner of the course";
        }
        return null;
    }

    private static @Nullable Double number(JsonNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || !value.isNumber() ? null : value.doubleValue();
    }

    // --- Deep Linking 2.0: the response the tool posts back ---

    private Answer returnFromDeepLinking(Request request) {
        String jwt = request.parameters().get("JWT");
        if (!"POST".equals(request.method()) || jwt == null) {
            return Answer.html(400, "<p>The deep linking response must be a POST with a JWT field.</p>");
        }
        Tool tool;
        try {
            String issuer = SignedJWT.parse(jwt).getJWTClaimsSet().getIssuer();
            tool = issuer == null ? null : tools.get(issuer);
        } catch (ParseException e) {
            return Answer.html(400, "<p>The JWT field is not a JWT.</p>");
        }
        if (tool == null) {
            return Answer.html(400, "<p>The response's iss is no registered client.</p>");
        }
        try {
            JWTClaimsSet claims = verifiedByTool(tool, jwt);
            if (claims.getAudience() == null || !claims.getAudience().contains(issuer())) {
                throw new RefusedJwt("the aud must be the platform's issuer");
            }
            if (claims.getClaim("nonce") == null) {
                throw new RefusedJwt("a nonce is required");
            }
            if (!tool.deploymentId().equals(claims.getClaim(Lti.DEPLOYMENT_ID))) {
                throw new RefusedJwt("the deployment_id is not the tool's");
            }
            if (!Lti.DEEP_LINKING_RESPONSE.equals(claims.getClaim(Lti.MESSAGE_TYPE))) {
                throw new RefusedJwt("the message_type must be " + Lti.DEEP_LINKING_RESPONSE);
            }
            if (!"1.3.0".equals(claims.getClaim(Lti.VERSION))) {
                throw new RefusedJwt("the version must be 1.3.0");
            }
            Object data = claims.getClaim(Lti.DEEP_LINKING_DATA);
            PendingDeepLinking pending = data instanceof String key ? pendingDeepLinking.remove(key) : null;
            if (pending == null || !pending.tool().equals(tool)) {
                throw new RefusedJwt("the data is not that of a deep linking request (or was used already)");
            }
            List<ResourceLink> links = place(pending, claims);
            DeepLinkingReturn returned =
                    new DeepLinkingReturn(links, (String) claims.getClaim(Lti.DEEP_LINKING_MSG), (String)
                            claims.getClaim(Lti.DEEP_LINKING_ERRORMSG));
            deepLinkingReturns.add(returned);
            return Answer.html(200, "<p>Added " + links.size() + " item(s) to the course.</p>");
        } catch (RefusedJwt e) {
            return Answer.html(400, "<p>" + HtmlForm.escape(Objects.requireNonNullElse(e.getMessage(), "")) + "</p>");
        }
    }

    @SuppressWarnings("unchecked")
    private List<ResourceLink> place(PendingDeepLinking pending, JWTClaimsSet claims) throws RefusedJwt {
        Object items = claims.getClaim(Lti.CONTENT_ITEMS);
        if (!(items instanceof List<?> list)) {
            throw new RefusedJwt("content_items must be an array");
        }
        List<ResourceLink> links = new ArrayList<>();
        for (Object entry : list) {
            if (!(entry instanceof Map<?, ?> item) || !"ltiResourceLink".equals(item.get("type"))) {
                throw new RefusedJwt("only ltiResourceLink items are accepted");
            }
            String title = item.get("title") instanceof String t ? t : "Untitled";
            String url =
                    item.get("url") instanceof String u ? u : pending.tool().launchUrl();
            Map<String, String> custom = new LinkedHashMap<>();
            if (item.get("custom") instanceof Map<?, ?> values) {
                for (Map.Entry<?, ?> value : values.entrySet()) {
                    if (!(value.getValue() instanceof String)) {
                        throw new RefusedJwt("custom parameter values must be strings");
                    }
                    custom.put(String.valueOf(value.getKey()), (String) value.getValue());
                }
            }
            LineItem lineItem = null;
            if (item.get("lineItem") instanceof Map<?, ?> requested) {
                Map<String, Object> columns = (Map<String, Object>) requested;
                if (!(columns.get("scoreMaximum") instanceof Number maximum) || maximum.doubleValue() <= 0) {
                    throw new RefusedJwt("lineItem.scoreMaximum must be a number above 0");
                }
                lineItem = pending.course()
                        .addLineItem(
                                columns.get("label") instanceof String label ? label : title,
                                maximum.doubleValue(),
                                columns.get("resourceId") instanceof String id ? id : null,
                                columns.get("tag") instanceof String tag ? tag : null,
                                null);
            }
            links.add(pending.course().place(title, url, custom, lineItem));
        }
        return links;
    }

    private record Frame(Map<String, String> initiation, String loginUrl, int width) {}

    private final Map<String, Frame> frames = new ConcurrentHashMap<>();

    /** A course page framing a launch (see {@link Launch#coursePage}): its URL, under the name localhost. */
    String coursePage(Map<String, String> initiation, String loginUrl, int width) {
        String id = UUID.randomUUID().toString();
        frames.put(id, new Frame(initiation, loginUrl, width));
        return "http://localhost:" + server.getAddress().getPort() + "/course-page/" + id;
    }

    private Answer coursePage(Request request) {
        String path = request.uri().getPath();
        String id = path.substring(path.lastIndexOf('/') + 1);
        Frame frame = frames.get(id);
        if (frame == null) {
            return Answer.html(404, "<p>No such course page.</p>");
        }
        if (path.startsWith("/storage-frame/")) {
            return Answer.html(200, STORAGE_FRAME_PAGE);
        }
        if (path.startsWith("/course-page/")) {
            return Answer.html(
                    200,
                    "<!doctype html><html lang=\"en\"><head><title>Course</title></head><body style=\"margin:0\">"
                            + "<iframe name=\"" + Launch.STORAGE_FRAME + "\" title=\"Storage\" hidden src=\""
                            + issuer() + "/storage-frame/" + id + "\"></iframe>"
                            + "<iframe id=\"tool\" title=\"The tool\" style=\"border:0\" width=\"" + frame.width()
                            + "\" height=\"900\" src=\"" + issuer() + "/launch-frame/" + id
                            + "\"></iframe></body></html>");
        }
        return Answer.html(200, new HtmlForm(URI.create(frame.loginUrl()), frame.initiation()).autoSubmittingPage());
    }

    /**
     * The platform's storage for tools (LTI platform storage): a frame of the course page, on the platform's origin,
     * that keeps what each tool's origin puts ({@code lti.put_data}) and gives it back ({@code lti.get_data}), for as
     * long as the page is open.
     */
    private static final String STORAGE_FRAME_PAGE = """
            <!doctype html><html lang="en"><head><title>Storage</title></head><body><script>
            var kept = {};
            window.addEventListener("message", function (event) {
              var data = event.data;
              if (!data || typeof data !== "object" || !data.message_id
                  || (data.subject !== "lti.put_data" && data.subject !== "lti.get_data")) {
                return;
              }
              var store = kept[event.origin] = kept[event.origin] || {};
              var answer = { subject: data.subject + ".response", message_id: data.message_id, key: data.key };
              if (data.subject === "lti.put_data") {
                store[data.key] = data.value;
                answer.value = data.value;
              } else if (Object.prototype.hasOwnProperty.call(store, data.key)) {
                answer.value = store[data.key];
              } else {
                answer.error = { code: "bad_request", message: "nothing is kept under " + data.key };
              }
              event.source.postMessage(answer, event.origin);
            });
            </script></body></html>""";

    void awaitLaunch(String messageHint, Launch launch) {
        pendingLaunches.put(messageHint, launch);
    }
}
