package io.tributary.adminui.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A tiny OpenID Connect provider standing in for Keycloak and the like: discovery
 * ({@code /.well-known/openid-configuration}), {@code /authorize} that approves at once as the user
 * chosen with {@link #signInAs} and redirects back with a code, {@code /token} (authorization code,
 * checked against its PKCE challenge and the client's secret; refresh token) answering RS256-signed
 * JWT access and ID tokens, {@code /jwks}, and an end-session endpoint ({@code /logout}) that
 * redirects to the {@code post_logout_redirect_uri}. Records every token it issues, so a test can tell the
 * login's token from a refreshed one, and tells the {@link StubRestProxy} who a Bearer token is.
 * Close it.
 */
public final class StubAuthorizationServer implements AutoCloseable {

    /** An access token this server issued: for whom, by which grant, and its value. */
    public record Issued(String user, String grant, String accessToken, String idToken, String refreshToken) {
    }

    private record Code(String user, String clientId, String redirectUri, String nonce, String challenge) {
    }

    private final HttpServer server;
    private final RSAKey key;
    private final String clientId;
    private final String clientSecret;
    private final Map<String, Code> codes = new ConcurrentHashMap<>();
    private final Map<String, String> refreshTokens = new ConcurrentHashMap<>();
    private final List<Issued> issued = new CopyOnWriteArrayList<>();
    private final List<Map<String, String>> signOuts = new CopyOnWriteArrayList<>();
    private volatile String user = "alice";
    private volatile Duration lifetime = Duration.ofMinutes(5);
    private volatile boolean givesRefreshTokens = true;
    private volatile boolean refusesRefresh;

    /** Starts on a free loopback port, for one client. */
    public StubAuthorizationServer(String clientId, String clientSecret) throws IOException, JOSEException {
        this.clientId = clientId;
        this.clientSecret = clientSecret;
        key = new RSAKeyGenerator(2048).keyID("stub-" + UUID.randomUUID()).generate();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/.well-known/openid-configuration", exchange -> send(exchange, 200, """
            {"issuer":"%1$s","authorization_endpoint":"%1$s/authorize","token_endpoint":"%1$s/token",
             "jwks_uri":"%1$s/jwks","response_types_supported":["code"],"subject_types_supported":["public"],
             "id_token_signing_alg_values_supported":["RS256"],"scopes_supported":["openid","profile"],
             "token_endpoint_auth_methods_supported":["client_secret_basic"],
             "code_challenge_methods_supported":["S256"],"end_session_endpoint":"%1$s/logout"}"""
            .formatted(issuer())));
        server.createContext("/jwks", exchange -> send(exchange, 200, new JWKSet(key.toPublicJWK()).toString()));
        server.createContext("/authorize", this::authorize);
        server.createContext("/token", this::token);
        server.createContext("/logout", exchange -> {
            Map<String, String> query = form(exchange.getRequestURI().getRawQuery());
            signOuts.add(query);
            exchange.getResponseHeaders().set("Location", query.getOrDefault("post_logout_redirect_uri", issuer()));
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.start();
    }

    /** The issuer ({@code spring.security.oauth2.client.provider.<id>.issuer-uri}). */
    public String issuer() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Who the next {@code /authorize} signs in (their {@code sub} and {@code preferred_username}). */
    public StubAuthorizationServer signInAs(String username) {
        this.user = username;
        return this;
    }

    /** How long the access tokens issued from now on live ({@code expires_in}). */
    public StubAuthorizationServer accessTokenLifetime(Duration lifetime) {
        this.lifetime = lifetime;
        return this;
    }

    /** Whether token answers from now on carry a refresh token. */
    public StubAuthorizationServer givesRefreshTokens(boolean gives) {
        this.givesRefreshTokens = gives;
        return this;
    }

    /** Whether refresh grants are refused ({@code invalid_grant}), as when the provider session ended. */
    public StubAuthorizationServer refusesRefresh(boolean refuses) {
        this.refusesRefresh = refuses;
        return this;
    }

    /** Every token answer so far, in order. */
    public List<Issued> issued() {
        return List.copyOf(issued);
    }

    /** The query parameters of each end-session request ({@code /logout}) so far, in order. */
    public List<Map<String, String>> signOuts() {
        return List.copyOf(signOuts);
    }

    /** The user an access token was issued to, or null for one this server did not issue. */
    public String userOf(String accessToken) {
        return issued.stream().filter(i -> i.accessToken().equals(accessToken)).map(Issued::user).findFirst()
            .orElse(null);
    }

    private void authorize(HttpExchange exchange) throws IOException {
        Map<String, String> query = form(exchange.getRequestURI().getRawQuery());
        if (!clientId.equals(query.get("client_id")) || !"code".equals(query.get("response_type"))) {
            send(exchange, 400, "{\"error\":\"invalid_request\"}");
            return;
        }
        String code = UUID.randomUUID().toString();
        codes.put(code, new Code(user, clientId, query.get("redirect_uri"), query.get("nonce"),
            query.get("code_challenge")));
        String back = query.get("redirect_uri") + "?code=" + code + "&state="
            + URLEncoder.encode(query.getOrDefault("state", ""), StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Location", back);
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
    }

    private void token(HttpExchange exchange) throws IOException {
        Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        String expected = "Basic " + Base64.getEncoder().encodeToString((URLEncoder.encode(clientId,
            StandardCharsets.UTF_8) + ":" + URLEncoder.encode(clientSecret, StandardCharsets.UTF_8))
            .getBytes(StandardCharsets.UTF_8));
        if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            send(exchange, 401, "{\"error\":\"invalid_client\"}");
            return;
        }
        try {
            switch (form.getOrDefault("grant_type", "")) {
                case "authorization_code" -> {
                    Code code = codes.remove(form.getOrDefault("code", ""));
                    if (code == null || !code.redirectUri().equals(form.get("redirect_uri"))
                            || code.challenge() == null || !code.challenge().equals(s256(form.get("code_verifier")))) {
                        send(exchange, 400, "{\"error\":\"invalid_grant\"}");
                        return;
                    }
                    send(exchange, 200, tokens(code.user(), "authorization_code", code.nonce()));
                }
                case "refresh_token" -> {
                    String owner = refreshTokens.remove(form.getOrDefault("refresh_token", ""));
                    if (owner == null || refusesRefresh) {
                        send(exchange, 400, "{\"error\":\"invalid_grant\"}");
                        return;
                    }
                    send(exchange, 200, tokens(owner, "refresh_token", null));
                }
                default -> send(exchange, 400, "{\"error\":\"unsupported_grant_type\"}");
            }
        } catch (JOSEException e) {
            send(exchange, 500, "{\"error\":\"server_error\"}");
        }
    }

    private String tokens(String owner, String grant, String nonce) throws JOSEException {
        Instant now = Instant.now();
        String access = sign(new JWTClaimsSet.Builder().issuer(issuer()).subject(owner).audience("tributary")
            .claim("preferred_username", owner).jwtID(UUID.randomUUID().toString()).issueTime(Date.from(now))
            .expirationTime(Date.from(now.plus(lifetime))).build());
        String id = null;
        if (nonce != null) {
            id = sign(new JWTClaimsSet.Builder().issuer(issuer()).subject(owner).audience(clientId)
                .claim("preferred_username", owner).claim("nonce", nonce).issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofMinutes(5)))).build());
        }
        String refresh = givesRefreshTokens ? "rt-" + UUID.randomUUID() : null;
        if (refresh != null) {
            refreshTokens.put(refresh, owner);
        }
        issued.add(new Issued(owner, grant, access, id, refresh));
        return "{\"access_token\":\"" + access + "\",\"token_type\":\"Bearer\",\"expires_in\":" + lifetime.toSeconds()
            + (id == null ? "" : ",\"id_token\":\"" + id + "\"")
            + (refresh == null ? "" : ",\"refresh_token\":\"" + refresh + "\"") + ",\"scope\":\"openid profile\"}";
    }

    private String sign(JWTClaimsSet claims) throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private static String s256(String verifier) {
        if (verifier == null) {
            return null;
        }
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
                .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, String> form(String encoded) {
        Map<String, String> values = new HashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return values;
        }
        for (String pair : encoded.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            values.put(name, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return values;
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
