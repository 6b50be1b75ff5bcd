package com.chatreview.lti.launch;

import com.chatreview.kernel.Sha256;
import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.LtiPlatform;
import com.chatreview.lti.LtiSettings;
import com.chatreview.lti.keys.PlatformKeys;
import com.chatreview.lti.platforms.Platforms;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The launch (docs/lti.md, Launch): OIDC third-party-initiated login, then the platform's {@code id_token} checked
 * against its JWKS and the login it answers. The login's state and nonce are kept server-side and taken once, so no
 * cookie is needed in the LMS's iframe and a launch cannot be replayed.
 */
@Component
public class LtiLaunches {

    public static final String CLAIM = "https://purl.imsglobal.org/spec/lti/claim/";
    static final String DEEP_LINKING_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings";
    static final String AGS_ENDPOINT = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint";
    private static final Set<String> MESSAGE_TYPES =
            Set.of(LtiLaunch.RESOURCE_LINK_REQUEST, LtiLaunch.DEEP_LINKING_REQUEST);
    private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();
    private static final int BRIEF = 120;
    /** The longest {@code studentId} homework and submissions take. */
    static final int MAX_STUDENT_ID = 255;

    private static final String ADMIN_ADVICE =
            " If it keeps failing, show this message to whoever set the tool up in your LMS.";

    private final Platforms platforms;
    private final PlatformKeys keys;
    private final LoginStates logins;
    private final LtiSettings settings;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    LtiLaunches(Platforms platforms, PlatformKeys keys, LoginStates logins, LtiSettings settings, Clock clock) {
        this.platforms = platforms;
        this.keys = keys;
        this.logins = logins;
        this.settings = settings;
        this.clock = clock;
    }

    /** What a platform sends to start a login (the OIDC login initiation's parameters). */
    public record LoginInitiation(
            @Nullable String issuer,
            @Nullable String loginHint,
            @Nullable String targetLinkUri,
            @Nullable String messageHint,
            @Nullable String clientId,
            @Nullable String deploymentId,
            @Nullable String storageTarget) {}

    /**
     * Where the browser goes after the login page: the platform's authorization endpoint with the authentication
     * request; and, when the platform keeps data for the tool, what the page puts in its storage first.
     */
    public record Login(URI authorization, @Nullable PlatformStorage storage) {}

    /**
     * A value in the LMS's storage for the tool (LTI platform storage, in the browser): put there by the login page,
     * read back by the launch's, so that a launch opens only in the browser that started its login.
     *
     * @param target the storage frame: {@code _parent}, or the name of a frame of the LMS's window
     * @param origin the LMS's origin, that of its authorization endpoint: messages go to it alone
     * @param key what the value is kept under
     * @param value the value, to put (at the login); at the launch, none is known: the browser has it or not
     */
    public record PlatformStorage(
            String target,
            String origin,
            String key,
            @Nullable String value) {}

    /** A verified launch, and the storage its browser must show the login's value from, if its platform has one. */
    public record Launched(
            LtiLaunch launch,
            @Nullable PlatformStorage storage,
            @Nullable String storedValueHash) {}

    /**
     * Starts a login: where the browser goes next, the platform's authorization endpoint with the authentication
     * request, its state and nonce kept for the launch.
     *
     * @param launchUrl the tool's launch URL, as the platform has it registered (the {@code redirect_uri})
     * @throws LaunchRefused when the platform is not registered, or the initiation lacks what it must carry
     */
    public Login login(LoginInitiation initiation, String launchUrl) {
        String issuer = required(initiation.issuer(), "iss");
        String loginHint = required(initiation.loginHint(), "login_hint");
        String targetLinkUri = required(initiation.targetLinkUri(), "target_link_uri");
        String clientId = Objects.requireNonNullElse(initiation.clientId(), "");
        String deployment = Objects.requireNonNullElse(initiation.deploymentId(), "");
        List<LtiPlatform> candidates = platforms.forLogin(issuer, clientId, deployment);
        if (candidates.isEmpty()) {
            throw LaunchRefused.because("This LMS (issuer " + issuer
                    + (clientId.isEmpty() ? "" : ", client_id " + clientId)
                    + (deployment.isEmpty() ? "" : ", deployment " + deployment)
                    + ") is not registered with the service. Its registration is made with POST"
                    + " /api/v1/lti/platforms, or by Dynamic Registration.");
        }
        if (candidates.size() > 1) {
            throw LaunchRefused.because("Several registrations share the issuer " + issuer
                    + (clientId.isEmpty() ? "" : " and client_id " + clientId)
                    + "; the LMS must send its client_id and lti_deployment_id with the login." + ADMIN_ADVICE);
        }
        LtiPlatform platform = candidates.getFirst();
        checkTarget(targetLinkUri, launchUrl);
        String storageTarget = storageTarget(platform, initiation.storageTarget());
        String state = randomToken();
        String nonce = randomToken();
        String stored = storageTarget == null ? null : randomToken();
        Instant now = clock.instant();
        logins.put(
                state,
                new LoginState(
                        platform.id(),
                        nonce,
                        targetLinkUri,
                        now.plus(settings.loginTimeout()),
                        storageTarget,
                        stored == null ? null : hashOf(stored)),
                settings.loginTimeout());
        Map<String, String> request = new LinkedHashMap<>();
        request.put("scope", "openid");
        request.put("response_type", "id_token");
        request.put("response_mode", "form_post");
        request.put("prompt", "none");
        request.put("client_id", platform.clientId());
        request.put("redirect_uri", launchUrl);
        request.put("login_hint", loginHint);
        if (initiation.messageHint() != null) {
            request.put("lti_message_hint", initiation.messageHint());
        }
        request.put("state", state);
        request.put("nonce", nonce);
        String query = request.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        String authorization = platform.authLoginUrl();
        URI next = URI.create(authorization + (authorization.contains("?") ? "&" : "?") + query);
        return new Login(
                next,
                storageTarget == null
                        ? null
                        : new PlatformStorage(storageTarget, originOf(platform), STORAGE_KEY_PREFIX + state, stored));
    }

    /** What platform storage keeps of a launch for the tool is under this, then its state. */
    static final String STORAGE_KEY_PREFIX = "homework-review-launch-";

    private static final java.util.regex.Pattern FRAME_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,100}");

    /**
     * The login's storage frame, checked: a platform that was seen using it (it keeps data for the tool) must name one
     * at every login, or an attacker's login without it would open a launch in any browser. A login alone never marks
     * the platform: anyone can send one, and a mark made by a stranger would refuse every login of an LMS that has
     * no storage (Moodle, Brightspace, Blackboard); only a launch whose id_token verified does ({@link #launch}).
     */
    private @Nullable String storageTarget(LtiPlatform platform, @Nullable String target) {
        if (target == null || target.isEmpty()) {
            if (platforms.storageSeen(platform.id())) {
                throw LaunchRefused.because("This LMS keeps the tool's launches in its storage, but this login did not"
                        + " say where (lti_storage_target). Launch the tool again from your course.");
            }
            return null;
        }
        if (!FRAME_NAME.matcher(target).matches()) {
            throw LaunchRefused.because("The login's lti_storage_target is not the name of a frame.");
        }
        return target;
    }

    /** Where the platform's storage frame is: its login's origin (postMessage's target origin). */
    private static String originOf(LtiPlatform platform) {
        return Objects.requireNonNull(
                LtiPlatform.originOf(platform.authLoginUrl()), "a registered auth_login_url is an http(s) URL");
    }

    static String hashOf(String value) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Sha256.of(value));
    }

    /**
     * The launch: the platform's answer to a login, checked. A state is taken once: the same answer again is refused.
     *
     * @throws LaunchRefused saying which check failed
     */
    public Launched launch(
            @Nullable String idToken,
            @Nullable String state,
            @Nullable String error,
            @Nullable String errorDescription) {
        if (error != null) {
            // anyone can post these: shown as the LMS's words, briefly, never as the tool's
            throw LaunchRefused.because("The LMS did not sign you in to the tool. Launch it again from your course."
                    + ADMIN_ADVICE + " The LMS answered: " + brief(error)
                    + (errorDescription == null ? "" : " (" + brief(errorDescription) + ")") + ".");
        }
        String token = required(idToken, "id_token");
        LoginState login = logins.take(required(state, "state"))
                .filter(found -> found.expiresAt().isAfter(clock.instant()))
                .orElseThrow(() -> LaunchRefused.because("This launch is unknown, expired, or was used already: a"
                        + " launch must come back within "
                        + settings.loginTimeout().toMinutes()
                        + " minutes of its login, once. Launch the tool again from your course."));
        LtiPlatform platform = platforms
                .byId(login.platformId())
                .orElseThrow(() -> LaunchRefused.because("The LMS this launch came from is no longer registered."));
        JWTClaimsSet claims = verified(platform, token);
        LtiLaunch launch = launchOf(platform, claims, login);
        String target = login.storageTarget();
        if (target != null) {
            // the platform signed a launch of a login that named its storage: it keeps data for the tool
            platforms.sawStorage(platform.id());
        }
        return target == null
                ? new Launched(launch, null, null)
                : new Launched(
                        launch,
                        new PlatformStorage(target, originOf(platform), STORAGE_KEY_PREFIX + state, null),
                        login.storedValueHash());
    }

    private JWTClaimsSet verified(LtiPlatform platform, String idToken) {
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(idToken);
        } catch (ParseException e) {
            throw LaunchRefused.because("The id_token is not a signed JWT." + ADMIN_ADVICE);
        }
        if (!JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm())) {
            throw LaunchRefused.because("The id_token must be signed with RS256; it is signed with "
                    + jwt.getHeader().getAlgorithm() + "." + ADMIN_ADVICE);
        }
        String kid = jwt.getHeader().getKeyID();
        if (kid == null) {
            throw LaunchRefused.because("The id_token's header names no key (kid)." + ADMIN_ADVICE);
        }
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, keys.of(platform)));
        DefaultJWTClaimsVerifier<SecurityContext> claimsVerifier = new DefaultJWTClaimsVerifier<>(
                platform.clientId(),
                new JWTClaimsSet.Builder().issuer(platform.issuer()).build(),
                Set.of("sub", "exp", "iat", "nonce"));
        claimsVerifier.setMaxClockSkew((int) settings.clockSkew().toSeconds());
        processor.setJWTClaimsSetVerifier(claimsVerifier);
        try {
            return processor.process(jwt, null);
        } catch (RateLimitReachedException e) {
            throw LaunchRefused.because("The id_token is signed with a key (kid " + kid
                    + ") that the LMS's JWKS did not publish when it was fetched moments ago." + ADMIN_ADVICE);
        } catch (KeySourceException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            // a parser's message quotes what the LMS answered, which is never shown
            String why = cause instanceof ParseException
                    ? "its answer is not a JWK set"
                    : Objects.requireNonNullElse(
                            cause.getMessage(), cause.getClass().getSimpleName());
            throw LaunchRefused.unavailable("The LMS's keys could not be fetched from its jwks_url ("
                    + platform.jwksUrl() + "): " + why + ". Launch the tool again in a moment.");
        } catch (BadJWTException e) {
            throw LaunchRefused.because(claimProblem(platform, e) + ADMIN_ADVICE);
        } catch (BadJOSEException e) {
            String message = Objects.requireNonNullElse(e.getMessage(), "");
            throw LaunchRefused.because((message.contains("no matching key")
                            ? "The id_token is signed with a key (kid " + kid
                                    + ") that the LMS's JWKS does not publish."
                            : message.contains("Invalid signature")
                                    ? "The id_token's signature does not verify with the LMS's key " + kid + "."
                                    : "The id_token was refused: " + message + ".")
                    + ADMIN_ADVICE);
        } catch (JOSEException e) {
            throw LaunchRefused.because("The id_token could not be verified: " + e.getMessage() + "." + ADMIN_ADVICE);
        }
    }

    private static String claimProblem(LtiPlatform platform, BadJWTException e) {
        String message = Objects.requireNonNullElse(e.getMessage(), "");
        if (message.startsWith("Expired JWT")) {
            return "The id_token has expired (the LMS's clock may be off, or the launch took too long).";
        }
        if (message.startsWith("JWT aud")
                || message.startsWith("JWT missing required aud")
                || message.contains("missing required claims: [aud")) {
            return "The id_token is meant for another tool: its aud is not this registration's client_id "
                    + platform.clientId() + ".";
        }
        if (message.startsWith("JWT iss claim")) {
            return "The id_token's issuer is not the registered one, " + platform.issuer() + ".";
        }
        return "The id_token was refused: " + message + ".";
    }

    @SuppressWarnings("unchecked")
    private LtiLaunch launchOf(LtiPlatform platform, JWTClaimsSet claims, LoginState login) {
        Instant now = clock.instant();
        Date issuedAt = claims.getIssueTime();
        if (issuedAt != null && issuedAt.toInstant().isAfter(now.plus(settings.clockSkew()))) {
            throw LaunchRefused.because(
                    "The id_token was issued in the future (iat): the LMS's clock is off." + ADMIN_ADVICE);
        }
        List<String> audience = claims.getAudience();
        Object azp = claims.getClaim("azp");
        if ((audience.size() > 1 || azp != null) && !platform.clientId().equals(azp)) {
            throw LaunchRefused.because("The id_token's authorized party (azp) is not this registration's client_id "
                    + platform.clientId() + "." + ADMIN_ADVICE);
        }
        if (!login.nonce().equals(text(claims, "nonce"))) {
            throw LaunchRefused.because("The id_token's nonce is not the one of this login: a replayed or mixed-up"
                    + " launch. Launch the tool again from your course.");
        }
        if (!"1.3.0".equals(text(claims, CLAIM + "version"))) {
            throw LaunchRefused.because("The launch is not LTI 1.3.0 (its version claim is "
                    + text(claims, CLAIM + "version") + ")." + ADMIN_ADVICE);
        }
        String deployment = text(claims, CLAIM + "deployment_id");
        if (deployment == null || !platform.deploymentIds().contains(deployment)) {
            throw LaunchRefused.because("The deployment " + deployment
                    + " is not one registered for this LMS; add it to the platform's deployment_ids." + ADMIN_ADVICE);
        }
        String messageType = text(claims, CLAIM + "message_type");
        if (messageType == null || !MESSAGE_TYPES.contains(messageType)) {
            throw LaunchRefused.because("The tool does not take " + messageType + " messages, only "
                    + LtiLaunch.RESOURCE_LINK_REQUEST + " and " + LtiLaunch.DEEP_LINKING_REQUEST + "." + ADMIN_ADVICE);
        }
        String target = text(claims, CLAIM + "target_link_uri");
        if (target == null || !login.targetLinkUri().equals(target)) {
            throw LaunchRefused.because(
                    "The id_token's target_link_uri is not the one the login named." + ADMIN_ADVICE);
        }
        String sub = text(claims, "sub");
        if (sub == null || sub.isBlank()) {
            throw LaunchRefused.because("The launch names no user (sub): the tool takes no anonymous launches.");
        }
        if (platform.studentIdOf(sub).length() > MAX_STUDENT_ID) {
            throw LaunchRefused.because("The LMS's id of the user (sub) is " + sub.length() + " characters long; the"
                    + " tool takes at most "
                    + (MAX_STUDENT_ID - platform.studentIdOf("").length()) + "." + ADMIN_ADVICE);
        }
        Map<String, Object> link = object(claims, CLAIM + "resource_link");
        LtiLaunch.ResourceLink resourceLink = link == null || !(link.get("id") instanceof String id)
                ? null
                : new LtiLaunch.ResourceLink(id, string(link.get("title")));
        if (resourceLink == null && messageType.equals(LtiLaunch.RESOURCE_LINK_REQUEST)) {
            throw LaunchRefused.because("The launch names no resource link (resource_link.id)." + ADMIN_ADVICE);
        }
        LtiLaunch.DeepLinking deepLinking = deepLinking(object(claims, DEEP_LINKING_SETTINGS));
        if (deepLinking == null && messageType.equals(LtiLaunch.DEEP_LINKING_REQUEST)) {
            throw LaunchRefused.because(
                    "The deep linking request has no deep_link_return_url that is an http(s) URL." + ADMIN_ADVICE);
        }
        Map<String, Object> context = object(claims, CLAIM + "context");
        return new LtiLaunch(
                platform,
                messageType,
                deployment,
                sub,
                platform.studentIdOf(sub),
                text(claims, "name"),
                text(claims, "email"),
                strings(claims.getClaim(CLAIM + "roles")),
                context == null || !(context.get("id") instanceof String contextId)
                        ? null
                        : new LtiLaunch.Context(contextId, string(context.get("label")), string(context.get("title"))),
                resourceLink,
                custom(object(claims, CLAIM + "custom")),
                gradeService(object(claims, AGS_ENDPOINT)),
                deepLinking,
                target,
                returnUrl(object(claims, CLAIM + "launch_presentation")));
    }

    /** Where the LMS takes the user back to: its own page, so an origin that frames the tool's pages. */
    private static @Nullable String returnUrl(@Nullable Map<String, Object> presentation) {
        return presentation != null
                        && presentation.get("return_url") instanceof String url
                        && url.length() <= 2048
                        && webUrl(url)
                ? url
                : null;
    }

    private static LtiLaunch.@Nullable DeepLinking deepLinking(@Nullable Map<String, Object> settings) {
        if (settings == null
                || !(settings.get("deep_link_return_url") instanceof String returnUrl)
                || !webUrl(returnUrl)) {
            return null;
        }
        return new LtiLaunch.DeepLinking(
                returnUrl,
                strings(settings.get("accept_types")),
                Boolean.TRUE.equals(settings.get("accept_multiple")),
                string(settings.get("data")),
                // absent means accepted (the AGS claim in deep linking): only an explicit false says otherwise
                !Boolean.FALSE.equals(settings.get("accept_lineitem")));
    }

    /**
     * An absolute http(s) URL with no user info: where a page of the tool may send the browser, or post a form.
     */
    private static boolean webUrl(String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
            return (scheme.equals("https") || scheme.equals("http"))
                    && uri.getHost() != null
                    && uri.getRawUserInfo() == null;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    private static LtiLaunch.@Nullable GradeService gradeService(@Nullable Map<String, Object> endpoint) {
        if (endpoint == null) {
            return null;
        }
        return new LtiLaunch.GradeService(
                strings(endpoint.get("scope")), string(endpoint.get("lineitems")), string(endpoint.get("lineitem")));
    }

    /** The custom parameters whose values are text (as LTI defines them); others are left out. */
    private static Map<String, String> custom(@Nullable Map<String, Object> custom) {
        Map<String, String> values = new LinkedHashMap<>();
        if (custom != null) {
            custom.forEach((name, value) -> {
                if (value instanceof String text) {
                    values.put(name, text);
                }
            });
        }
        return values;
    }

    private static @Nullable String text(JWTClaimsSet claims, String name) {
        return string(claims.getClaim(name));
    }

    private static @Nullable String string(@Nullable Object value) {
        return value instanceof String text ? text : null;
    }

    private static List<String> strings(@Nullable Object value) {
        List<String> strings = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof String text) {
                    strings.add(text);
                }
            }
        }
        return strings;
    }

    @SuppressWarnings("unchecked")
    private static @Nullable Map<String, Object> object(JWTClaimsSet claims, String name) {
        return claims.getClaim(name) instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

    private static String brief(String text) {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= BRIEF ? line : line.substring(0, BRIEF) + "…";
    }

    private static String required(@Nullable String value, String name) {
        if (value == null || value.isBlank()) {
            throw LaunchRefused.because("The LMS's request lacks " + name + "." + ADMIN_ADVICE);
        }
        return value;
    }

    /** The target link must be this tool's: its host is the launch URL's. */
    private static void checkTarget(String targetLinkUri, String launchUrl) {
        URI target;
        try {
            target = URI.create(targetLinkUri);
        } catch (IllegalArgumentException e) {
            throw LaunchRefused.because("The target_link_uri is not a URL." + ADMIN_ADVICE);
        }
        String host = URI.create(launchUrl).getHost();
        if (target.getHost() == null || !target.getHost().equalsIgnoreCase(host)) {
            throw LaunchRefused.because("The target_link_uri " + targetLinkUri + " is not a link to this tool (" + host
                    + ")." + ADMIN_ADVICE);
        }
    }

    private String randomToken() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return URL_SAFE.encodeToString(bytes);
    }
}
