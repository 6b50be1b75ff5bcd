package com.chatreview.lti.platform;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A user's launch of the tool from the platform, run as their browser runs it: the platform sends the browser to the
 * tool's login initiation, the tool redirects it to the platform's authorization endpoint, and the platform's page
 * posts the {@code id_token} to the tool. The browser keeps no cookie, as an iframe whose third-party cookies are
 * blocked: a tool that needs one fails here.
 *
 * <p>Before {@link #run}, a test may tamper with the claims or sign with another key, as a forged launch would.
 */
public final class Launch {

    /** The name of the frame of the course page that keeps tools' data (LTI platform storage). */
    public static final String STORAGE_FRAME = "lti-storage";

    private static final java.util.regex.Pattern STORED_VALUE =
            java.util.regex.Pattern.compile("data-value=\"([^\"]+)\"");

    /** What each leg answered: a leg not reached is null. */
    public record Result(
            HttpResponse<String> login,
            @Nullable HttpResponse<String> authorization,
            @Nullable HtmlForm posted,
            @Nullable HttpResponse<String> launch) {

        /** The tool's answer to the posted {@code id_token}; fails the test if the flow stopped before it. */
        public HttpResponse<String> page() {
            if (launch == null) {
                throw new AssertionError("the launch stopped before the id_token was posted: login answered "
                        + login.statusCode() + " " + login.body()
                        + (authorization == null
                                ? ""
                                : "; authorization answered " + authorization.statusCode() + " "
                                        + authorization.body()));
            }
            return launch;
        }

        /** The value the tool's login page would have put in the platform's storage, if it had one put. */
        public @Nullable String storedValue() {
            java.util.regex.Matcher found = STORED_VALUE.matcher(login.body());
            return found.find() ? found.group(1) : null;
        }

        /** The form the platform had the browser post to the tool; fails the test if there was none. */
        public HtmlForm form() {
            if (posted == null) {
                throw new AssertionError("the platform posted no form");
            }
            return posted;
        }
    }

    private static final HttpClient BROWSER = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    private final EmulatedPlatform platform;
    private final EmulatedPlatform.Tool tool;
    private final Course course;
    private final Member member;
    private final String messageType;
    private final @Nullable ResourceLink link;
    private Consumer<JWTClaimsSet.Builder> tampering = claims -> {};
    private @Nullable RSAKey signingKey;
    private java.util.function.@Nullable Function<JWTClaimsSet, String> encoding;
    private boolean loginByGet;
    private @Nullable String storageTarget;
    private boolean withoutClientId;
    /** The browser's address, as a trusted proxy forwards it: each launch its own user's. */
    private final String clientAddress = "10.77." + ThreadLocalRandom.current().nextInt(256) + "."
            + ThreadLocalRandom.current().nextInt(1, 255);

    Launch(
            EmulatedPlatform platform,
            EmulatedPlatform.Tool tool,
            Course course,
            Member member,
            String messageType,
            @Nullable ResourceLink link) {
        this.platform = platform;
        this.tool = tool;
        this.course = course;
        this.member = member;
        this.messageType = messageType;
        this.link = link;
    }

    /** Changes the id_token's claims after the platform set them, before it signs. */
    public Launch tamper(Consumer<JWTClaimsSet.Builder> tampering) {
        this.tampering = this.tampering.andThen(tampering);
        return this;
    }

    /** Signs the id_token with this key (its {@code kid} in the header) instead of the platform's. */
    public Launch signedWith(RSAKey key) {
        this.signingKey = key;
        return this;
    }

    /**
     * Makes the id_token of its claims this way instead of the platform's signature: unsigned, another algorithm, no
     * {@code kid}, as an attacker would.
     */
    public Launch encodedAs(java.util.function.Function<JWTClaimsSet, String> encoding) {
        this.encoding = encoding;
        return this;
    }

    java.util.function.@Nullable Function<JWTClaimsSet, String> encoding() {
        return encoding;
    }

    /** Initiates the login with a GET and a query, as some platforms do, instead of a form POST. */
    public Launch loginByGet() {
        this.loginByGet = true;
        return this;
    }

    /**
     * Initiates the login naming the platform's storage frame ({@code lti_storage_target}), as a platform that keeps
     * data for tools in the browser does (Canvas). {@link #run} then does what the tool's login page has the browser
     * do, but for storing its value (read it with {@link Result#storedValue()}).
     */
    public Launch withPlatformStorage() {
        this.storageTarget = STORAGE_FRAME;
        return this;
    }

    /** Initiates the login without {@code client_id} and {@code lti_deployment_id}, as LTI lets a platform do. */
    public Launch withoutClientId() {
        this.withoutClientId = true;
        return this;
    }

    EmulatedPlatform.Tool tool() {
        return tool;
    }

    Course course() {
        return course;
    }

    Member member() {
        return member;
    }

    String messageType() {
        return messageType;
    }

    @Nullable
    ResourceLink link() {
        return link;
    }

    Consumer<JWTClaimsSet.Builder> tampering() {
        return tampering;
    }

    @Nullable
    RSAKey signingKey() {
        return signingKey;
    }

    public Result run() {
        Map<String, String> initiation = initiation();
        URI loginUrl = URI.create(tool.loginUrl());
        HttpResponse<String> login = loginByGet
                ? send(HttpRequest.newBuilder(URI.create(tool.loginUrl() + "?" + HtmlForm.urlEncoded(initiation)))
                        .header("X-Forwarded-For", clientAddress)
                        .GET())
                : send(HttpRequest.newBuilder(loginUrl)
                        .header("X-Forwarded-For", clientAddress)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(HtmlForm.urlEncoded(initiation))));
        String location = login.headers().firstValue("Location").orElse(null);
        if (login.statusCode() == 200 && login.body().contains("id=\"platform-storage\"")) {
            // the page's script puts the value in the storage frame, then sends its form (a GET): this does the GET
            HtmlForm next = HtmlForm.in(login.body(), loginUrl);
            location = next.action() + "?" + next.urlEncoded();
        } else if (login.statusCode() / 100 != 3 || location == null) {
            return new Result(login, null, null, null);
        }
        HttpResponse<String> authorization =
                send(HttpRequest.newBuilder(loginUrl.resolve(location)).GET());
        if (authorization.statusCode() != 200) {
            return new Result(login, authorization, null, null);
        }
        HtmlForm form = HtmlForm.in(authorization.body(), authorization.uri());
        return new Result(login, authorization, form, post(form, clientAddress));
    }

    /**
     * The course page a real browser opens for this launch: on the platform under another site's name
     * ({@code localhost}) than the tool's and the platform's own endpoints ({@code 127.0.0.1}), so that the tool in its
     * iframe is a third party, as in a school's LMS. The iframe starts the login by a form post, as Moodle does.
     */
    public String coursePage(int frameWidth) {
        return platform.coursePage(withPlatformStorage().initiation(), tool.loginUrl(), frameWidth);
    }

    /** The login initiation's parameters, the launch registered with the platform under its message hint. */
    private Map<String, String> initiation() {
        String messageHint = "message-" + UUID.randomUUID();
        platform.awaitLaunch(messageHint, this);
        Map<String, String> initiation = new LinkedHashMap<>();
        initiation.put("iss", platform.issuer());
        initiation.put("login_hint", member.sub());
        initiation.put("target_link_uri", link != null && link.url() != null ? link.url() : tool.launchUrl());
        initiation.put("lti_message_hint", messageHint);
        if (storageTarget != null) {
            initiation.put("lti_storage_target", storageTarget);
        }
        if (!withoutClientId) {
            initiation.put("client_id", tool.clientId());
            initiation.put("lti_deployment_id", tool.deploymentId());
        }
        return initiation;
    }

    /** Posts a form as the browser does (from an address of its own): the platform's form_post again, say. */
    public static HttpResponse<String> post(HtmlForm form) {
        return post(
                form,
                "10.78." + ThreadLocalRandom.current().nextInt(256) + "."
                        + ThreadLocalRandom.current().nextInt(1, 255));
    }

    public static HttpResponse<String> post(HtmlForm form, String clientAddress) {
        return send(HttpRequest.newBuilder(form.action())
                .header("X-Forwarded-For", clientAddress)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form.urlEncoded())));
    }

    /** A request as the browser sends it: no cookie, no redirect followed. */
    public static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return BROWSER.send(request.timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
