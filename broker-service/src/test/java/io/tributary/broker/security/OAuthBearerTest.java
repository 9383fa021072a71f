package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OAUTHBEARER (KIP-768): kafka-clients' own OAuth login sends a JWT signed by an issuer whose keys
 * (JWKS) the broker reads; the token's {@code sub} is the principal the ACLs name. Tokens signed by
 * another key, for another audience, or expired are refused. The issuer's keys and the tokens are
 * files here ({@code file:} URLs, allowed through Kafka's {@code allowed.files} system property).
 */
class OAuthBearerTest {

    private static final String ISSUER = "https://issuer.test";
    private static final String AUDIENCE = "tributary";
    private static final String ALLOWED_FILES = "org.apache.kafka.sasl.oauthbearer.allowed.files";
    private static final String ALLOWED_URLS = "org.apache.kafka.sasl.oauthbearer.allowed.urls";
    private static final List<String> TOKEN_FILES = List.of("carol", "forged", "audience");
    /** {@code connections.max.reauth.ms}: 20 minutes, between the lifetimes of the tokens below. */
    private static final long MAX_REAUTH_MS = 20 * 60_000L;

    @TempDir
    static Path dir;
    static RsaJsonWebKey issuerKey;
    static TestBroker broker;
    static LogCapture logs;
    static String previousAllowedFiles;
    static String previousAllowedUrls;
    static final List<String> TOKENS = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        logs = LogCapture.open();
        issuerKey = RsaJwkGenerator.generateJwk(2048);
        issuerKey.setKeyId("issuer-key-1");
        Path jwks = dir.resolve("jwks.json");
        Files.writeString(jwks, new JsonWebKeySet(issuerKey).toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
        previousAllowedFiles = System.getProperty(ALLOWED_FILES);
        previousAllowedUrls = System.getProperty(ALLOWED_URLS);
        // Kafka 4 reads only the URLs and files an operator allowed, JVM-wide.
        List<String> files = new java.util.ArrayList<>(List.of(jwks.toString()));
        List<String> urls = new java.util.ArrayList<>(List.of(jwks.toUri().toString()));
        for (String name : TOKEN_FILES) {
            files.add(dir.resolve(name + ".jwt").toString());
            urls.add(dir.resolve(name + ".jwt").toUri().toString());
        }
        System.setProperty(ALLOWED_FILES, String.join(",", files));
        System.setProperty(ALLOWED_URLS, String.join(",", urls));
        broker = TestBroker.start(dir.resolve("broker"), Map.of(
            "broker.listeners", "SASL_PLAINTEXT://127.0.0.1:" + TestBroker.freePort() + ",INTERNAL://127.0.0.1:"
                + TestBroker.freePort(),
            "broker.listener-security-protocol-map", "SASL_PLAINTEXT:SASL_PLAINTEXT,INTERNAL:PLAINTEXT",
            "broker.inter-broker-listener-name", "INTERNAL",
            "broker.sasl-enabled-mechanisms", "OAUTHBEARER",
            "broker.sasl-oauthbearer-jwks-endpoint-url", jwks.toUri().toString(),
            "broker.sasl-oauthbearer-expected-issuer", ISSUER,
            "broker.sasl-oauthbearer-expected-audience", AUDIENCE,
            "broker.authorizer-class-name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "broker.super-users", "User:ANONYMOUS",
            "broker.connections-max-reauth-ms", String.valueOf(MAX_REAUTH_MS)));
        broker.server().authorizer().aclsChanged(List.of(new AclBinding(
            new ResourcePattern(ResourceType.TOPIC, "jwt-topic", PatternType.LITERAL),
            new AccessControlEntry("User:carol", "*", AclOperation.DESCRIBE, AclPermissionType.ALLOW))), List.of());
        String internal = broker.server().boundEndPoints().stream().filter(e -> e.listenerName().equals("INTERNAL"))
            .map(e -> e.host() + ":" + e.port()).findFirst().orElseThrow();
        try (Admin admin = io.tributary.broker.testing.Clients.admin(internal)) {
            admin.createTopics(List.of(new NewTopic("jwt-topic", 1, (short) 1), new NewTopic("other", 1, (short) 1)))
                .all().get();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
        restore(ALLOWED_FILES, previousAllowedFiles);
        restore(ALLOWED_URLS, previousAllowedUrls);
        try (LogCapture captured = logs) {
            // No token, nor its signature part, in any log line.
            captured.assertNoLineContains(TOKENS.stream().map(t -> t.substring(t.lastIndexOf('.') + 1))
                .toArray(String[]::new));
        }
    }

    private static void restore(String property, String previous) {
        if (previous == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, previous);
        }
    }

    private static String token(RsaJsonWebKey key, String subject, String audience, float minutesToExpiry)
            throws Exception {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(ISSUER);
        claims.setAudience(audience);
        claims.setSubject(subject);
        claims.setIssuedAtToNow();
        claims.setExpirationTimeMinutesInTheFuture(minutesToExpiry);
        claims.setClaim("scope", "kafka");
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key.getPrivateKey());
        jws.setKeyIdHeaderValue(key.getKeyId());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        return jws.getCompactSerialization();
    }

    /** An Admin that logs in with kafka-clients' OAuth login handler, reading its token from a file. */
    private static Admin adminWith(String jwt, String name) throws Exception {
        TOKENS.add(jwt);
        Path tokenFile = dir.resolve(name + ".jwt");
        Files.writeString(tokenFile, jwt);
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.server().boundEndPoints().stream()
            .filter(e -> e.listenerName().equals("SASL_PLAINTEXT")).map(e -> e.host() + ":" + e.port())
            .findFirst().orElseThrow());
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        configs.put(SaslConfigs.SASL_MECHANISM, "OAUTHBEARER");
        configs.put(SaslConfigs.SASL_JAAS_CONFIG,
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;");
        configs.put(SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS,
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler");
        configs.put(SaslConfigs.SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL, tokenFile.toUri().toString());
        return Admin.create(configs);
    }

    @Test
    void theSessionLastsUntilTheTokenExpiresSoKafkaClientsReauthenticate() throws Exception {
        String jwt = token(issuerKey, "carol", AUDIENCE, 10);
        // The token's remaining ten minutes (KIP-368), less the time taken: sooner than connections.max.reauth.ms.
        assertThat(sessionLifetimeMs(jwt)).isBetween(9 * 60_000L, 10 * 60_000L);
    }

    /** The session_lifetime_ms SaslAuthenticate answers a login with {@code jwt} on a new connection. */
    private static long sessionLifetimeMs(String jwt) throws Exception {
        TOKENS.add(jwt);
        String address = broker.server().boundEndPoints().stream().filter(e -> e.listenerName().equals("SASL_PLAINTEXT"))
            .map(e -> e.host() + ":" + e.port()).findFirst().orElseThrow();
        try (io.tributary.broker.testing.WireClient client = io.tributary.broker.testing.WireClient.connect(address)) {
            assertThat(((org.apache.kafka.common.requests.SaslHandshakeResponse) client.send(
                new org.apache.kafka.common.requests.SaslHandshakeRequest.Builder(
                    new org.apache.kafka.common.message.SaslHandshakeRequestData().setMechanism("OAUTHBEARER"))
                    .build((short) 1))).error()).isEqualTo(org.apache.kafka.common.protocol.Errors.NONE);
            byte[] initial = ("n,,\u0001auth=Bearer " + jwt + "\u0001\u0001")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            org.apache.kafka.common.requests.SaslAuthenticateResponse authenticated = client.send(
                new org.apache.kafka.common.requests.SaslAuthenticateRequest.Builder(
                    new org.apache.kafka.common.message.SaslAuthenticateRequestData().setAuthBytes(initial))
                    .build((short) 2));
            assertThat(authenticated.error()).isEqualTo(org.apache.kafka.common.protocol.Errors.NONE);
            return authenticated.sessionLifetimeMs();
        }
    }

    /**
     * KIP-368 with {@code connections.max.reauth.ms} of 20 minutes: the session lifetime in SaslAuthenticate is
     * the sooner of that and the token's expiry: a token with 5 minutes left gets its remaining 5 minutes, one
     * with 30 minutes left gets 20.
     */
    @Test
    void theSessionLifetimeIsTheSoonerOfTheTokensExpiryAndConnectionsMaxReauthMs() throws Exception {
        assertThat(sessionLifetimeMs(token(issuerKey, "carol", AUDIENCE, 5))).as("the token's remaining lifetime")
            .isBetween(4 * 60_000L, 5 * 60_000L);
        assertThat(sessionLifetimeMs(token(issuerKey, "carol", AUDIENCE, 30))).as("connections.max.reauth.ms")
            .isEqualTo(MAX_REAUTH_MS);
    }

    @Test
    void aValidTokensSubjectIsThePrincipal() throws Exception {
        try (Admin admin = adminWith(token(issuerKey, "carol", AUDIENCE, 10), "carol")) {
            assertThat(admin.describeTopics(List.of("jwt-topic")).allTopicNames().get()).containsKey("jwt-topic");
            assertThatThrownBy(() -> admin.describeTopics(List.of("other")).allTopicNames().get())
                .cause().isInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void aTokenSignedByAnotherKeyIsRefused() throws Exception {
        RsaJsonWebKey forger = RsaJwkGenerator.generateJwk(2048);
        forger.setKeyId("issuer-key-1");
        try (Admin admin = adminWith(token(forger, "carol", AUDIENCE, 10), "forged")) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
                .cause().isInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() throws Exception {
        try (Admin admin = adminWith(token(issuerKey, "carol", "someone-else", 10), "audience")) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
                .cause().isInstanceOf(SaslAuthenticationException.class);
        }
    }
}
