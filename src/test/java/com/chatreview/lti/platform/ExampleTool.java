package com.chatreview.lti.platform;

import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The smallest LTI tool that checks the platform emulator against the specifications, independently of the service:
 * its login redirects to the authorization endpoint with a state and nonce it keeps, its launch verifies the
 * id_token with the platform's JWKS and answers the claims as JSON, and it signs client assertions and deep linking
 * responses with its own key, published at its JWKS URL.
 */
final class ExampleTool implements AutoCloseable {

    private final HttpServer server;
    private final EmulatedPlatform platform;
    final RSAKey key = EmulatedPlatform.newKey();
    private final Map<String, String> nonces = new ConcurrentHashMap<>();
    /** Parameters of the authentication request, changed by a test to send a wrong one. */
    final Map<String, String> authenticationOverrides = new ConcurrentHashMap<>();

    ExampleTool(EmulatedPlatform platform) throws IOException {
        this.platform = platform;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/login", this::login);
        server.createContext("/launch", this::launch);
        server.createContext("/jwks", exchange -> answer(exchange, 200, new JWKSet(key.toPublicJWK()).toString()));
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    EmulatedPlatform.Tool registerOn(EmulatedPlatform platform) {
        return platform.register(url("/login"), url("/launch"), url("/jwks"));
    }

    private void login(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getRawQuery();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> initiation = new EmulatedPlatform.Request(
                        "POST",
                        URI.create("/?" + (query == null ? "" : query)),
                        Map.of("content-type", "application/x-www-form-urlencoded"),
                        body)
                .parameters();
        String state = "state-" + UUID.randomUUID();
        String nonce = "nonce-" + UUID.randomUUID();
        nonces.put(state, nonce);
        Map<String, String> authentication = new LinkedHashMap<>();
        authentication.put("scope", "openid");
        authentication.put("response_type", "id_token");
        authentication.put("response_mode", "form_post");
        authentication.put("prompt", "none");
        authentication.put("client_id", initiation.get("client_id"));
        authentication.put("redirect_uri", url("/launch"));
        authentication.put("login_hint", initiation.get("login_hint"));
        authentication.put("lti_message_hint", initiation.get("lti_message_hint"));
        authentication.put("state", state);
        authentication.put("nonce", nonce);
        authentication.putAll(authenticationOverrides);
        exchange.getResponseHeaders()
                .set("Location", platform.authorizationUrl() + "?" + HtmlForm.urlEncoded(authentication));
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
    }

    /** Answers 200 and the verified claims, or 401 and why the id_token was refused (or the platform's error). */
    private void launch(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> form = new EmulatedPlatform.Request(
                        "POST", URI.create("/"), Map.of("content-type", "application/x-www-form-urlencoded"), body)
                .parameters();
        if (form.containsKey("error")) {
            answer(exchange, 401, form.get("error") + ": " + form.get("error_description"));
            return;
        }
        try {
            SignedJWT jwt = SignedJWT.parse(form.get("id_token"));
            String jwks = Launch.send(HttpRequest.newBuilder(URI.create(platform.jwksUrl()))
                            .GET())
                    .body();
            RSAKey platformKey =
                    JWKSet.parse(jwks).getKeyByKeyId(jwt.getHeader().getKeyID()).toRSAKey();
            if (!jwt.verify(new RSASSAVerifier(platformKey))) {
                answer(exchange, 401, "bad signature");
                return;
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            String nonce = nonces.remove(form.get("state"));
            if (nonce == null || !nonce.equals(claims.getStringClaim("nonce"))) {
                answer(exchange, 401, "state or nonce mismatch");
                return;
            }
            answer(exchange, 200, jwt.getPayload().toString());
        } catch (Exception e) {
            answer(exchange, 401, "refused: " + e);
        }
    }

    private static void answer(HttpExchange exchange, int status, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    /** A client assertion (RFC 7523) for the token endpoint, its claims changed by {@code tampering}. */
    String assertion(EmulatedPlatform.Tool tool, java.util.function.Consumer<JWTClaimsSet.Builder> tampering) {
        Instant now = Instant.now();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(tool.clientId())
                .subject(tool.clientId())
                .audience(platform.tokenUrl())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(300)))
                .jwtID(UUID.randomUUID().toString());
        tampering.accept(claims);
        return EmulatedPlatform.sign(claims.build(), key);
    }

    HttpResponse<String> requestToken(String assertion, String scope) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        form.put("client_assertion_type", Lti.JWT_BEARER);
        form.put("client_assertion", assertion);
        form.put("scope", scope);
        return Launch.send(HttpRequest.newBuilder(URI.create(platform.tokenUrl()))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(HtmlForm.urlEncoded(form))));
    }

    /** A deep linking response placing these content items, for the request whose settings carried {@code data}. */
    String deepLinkingResponse(EmulatedPlatform.Tool tool, String data, List<Map<String, Object>> items) {
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(tool.clientId())
                .audience(platform.issuer())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(300)))
                .claim("nonce", UUID.randomUUID().toString())
                .claim(Lti.DEPLOYMENT_ID, tool.deploymentId())
                .claim(Lti.MESSAGE_TYPE, Lti.DEEP_LINKING_RESPONSE)
                .claim(Lti.VERSION, "1.3.0")
                .claim(Lti.DEEP_LINKING_DATA, data)
                .claim(Lti.CONTENT_ITEMS, items)
                .build();
        return EmulatedPlatform.sign(claims, key);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
