package io.tributary.restproxy.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An OAuth2 token issuer for tests: an RSA key whose public half a JDK {@link HttpServer} serves as
 * a JWK set on {@link #jwksUrl()}, and RS256-signed JWTs minted with it (or with a forger's key of
 * the same key id). Remembers every token it minted, so a test can check none was logged.
 */
public final class TestIssuer implements AutoCloseable {

    public static final String ISSUER = "https://issuer.test";
    public static final String AUDIENCE = "tributary";
    private static final String KEY_ID = "issuer-key-1";

    private final RSAKey key;
    private final RSAKey forger;
    private final HttpServer server;
    private final List<String> minted = new CopyOnWriteArrayList<>();

    private TestIssuer(RSAKey key, RSAKey forger, HttpServer server) {
        this.key = key;
        this.forger = forger;
        this.server = server;
    }

    /** Generates the keys and starts serving the JWK set on a free loopback port. */
    public static TestIssuer start() {
        try {
            RSAKey key = new RSAKeyGenerator(2048).keyID(KEY_ID).generate();
            RSAKey forger = new RSAKeyGenerator(2048).keyID(KEY_ID).generate();
            byte[] jwks = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/jwks.json", exchange -> {
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, jwks.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(jwks);
                }
            });
            server.start();
            return new TestIssuer(key, forger, server);
        } catch (JOSEException | IOException e) {
            throw new IllegalStateException("Could not start the test issuer", e);
        }
    }

    /** Where the issuer's public keys are, {@code http://127.0.0.1:<port>/jwks.json}. */
    public String jwksUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks.json";
    }

    /** A token for {@code subject} and this issuer's audience, valid from a minute ago for {@code lifetime}. */
    public String token(String subject, Duration lifetime) {
        return sign(key, subject, AUDIENCE, Instant.now().minusSeconds(60), Instant.now().plus(lifetime));
    }

    /** A token signed by another key that claims this issuer's key id. */
    public String forged(String subject) {
        return sign(forger, subject, AUDIENCE, Instant.now(), Instant.now().plus(Duration.ofMinutes(10)));
    }

    /** A token for another audience. */
    public String forAudience(String subject, String audience) {
        return sign(key, subject, audience, Instant.now(), Instant.now().plus(Duration.ofMinutes(10)));
    }

    /** A token that expired {@code ago}. */
    public String expired(String subject, Duration ago) {
        Instant expiry = Instant.now().minus(ago);
        return sign(key, subject, AUDIENCE, expiry.minus(Duration.ofMinutes(10)), expiry);
    }

    /**
     * A token without {@code iat}: Spring Security takes it, kafka-clients' broker validator refuses
     * it (it requires the issue time).
     */
    public String withoutIssuedAt(String subject, Duration lifetime) {
        return sign(key, subject, AUDIENCE, null, Instant.now().plus(lifetime));
    }

    /**
     * An unsigned token ({@code alg=none}) with this issuer's claims; not among {@link #minted()}: it
     * has no signature, the part a log must not show.
     */
    public String unsigned(String subject) {
        return new PlainJWT(claims(subject, AUDIENCE, Instant.now(), Instant.now().plus(Duration.ofMinutes(10)))
            .build()).serialize();
    }

    /**
     * A token MAC'ed with HS256 whose secret is the issuer's public key (its X.509 encoding): the
     * algorithm confusion a verifier that takes the algorithm from the token would accept.
     */
    public String hmacWithPublicKey(String subject) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(KEY_ID).type(JOSEObjectType.JWT)
            .build(), claims(subject, AUDIENCE, Instant.now(), Instant.now().plus(Duration.ofMinutes(10))).build());
        try {
            jwt.sign(new MACSigner(key.toRSAPublicKey().getEncoded()));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        String token = jwt.serialize();
        minted.add(token);
        return token;
    }

    /** A token without {@code aud}. */
    public String withoutAudience(String subject) {
        return sign(key, claims(subject, null, Instant.now(), Instant.now().plus(Duration.ofMinutes(10))));
    }

    /** A token valid only from {@code ahead} on ({@code nbf}). */
    public String notYetValid(String subject, Duration ahead) {
        Instant from = Instant.now().plus(ahead);
        return sign(key, claims(subject, AUDIENCE, Instant.now(), from.plus(Duration.ofMinutes(10)))
            .notBeforeTime(Date.from(from)));
    }

    /** Every token minted so far. */
    public List<String> minted() {
        return List.copyOf(minted);
    }

    private String sign(RSAKey signer, String subject, String audience, Instant issuedAt, Instant expiresAt) {
        return sign(signer, claims(subject, audience, issuedAt, expiresAt));
    }

    private static JWTClaimsSet.Builder claims(String subject, String audience, Instant issuedAt, Instant expiresAt) {
        return new JWTClaimsSet.Builder().issuer(ISSUER).audience(audience).subject(subject)
            .issueTime(issuedAt == null ? null : Date.from(issuedAt)).expirationTime(Date.from(expiresAt)).claim("scope", "kafka");
    }

    private String sign(RSAKey signer, JWTClaimsSet.Builder claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(signer.getKeyID())
            .type(JOSEObjectType.JWT).build(), claims.build());
        try {
            jwt.sign(new RSASSASigner(signer));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        String token = jwt.serialize();
        minted.add(token);
        return token;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
