package io.tributary.restproxy.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.RestProxyApplication;
import io.tributary.restproxy.config.KafkaClientPool;
import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.LogCapture;
import io.tributary.restproxy.testing.TestIssuer;
import io.tributary.testing.TestPorts;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The proxy with {@code rest-proxy.authentication.method=bearer} in front of a broker whose
 * SASL_PLAINTEXT listener wants OAUTHBEARER tokens of the same issuer (keys served by
 * {@link TestIssuer}) and authorizes with Kafka's {@code StandardAuthorizer}: HTTP callers send
 * OAuth2 access tokens, and the proxy acts toward the brokers with each caller's own token, so the
 * brokers' principal is the token's subject.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DirtiesContext
@SpringBootTest(classes = RestProxyApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "rest-proxy.authentication.method=bearer",
        "spring.security.oauth2.resourceserver.jwt.issuer-uri=" + TestIssuer.ISSUER,
        "spring.security.oauth2.resourceserver.jwt.audiences=" + TestIssuer.AUDIENCE,
        "kafka.security-protocol=SASL_PLAINTEXT",
        "kafka.producer.[max.block.ms]=5000",
        "spring.mvc.async.request-timeout=10s"})
class BearerAuthenticationTest {

    private static final String JSON = "application/vnd.kafka.json.v2+json";
    private static final String V2 = "application/vnd.kafka.v2+json";

    private static TestIssuer issuer;
    private static BrokerFixture broker;

    @LocalServerPort
    int port;

    @Autowired
    BearerTokens tokens;

    @Autowired
    KafkaClientPool pool;

    private LogCapture logs;
    private HttpJson anonymous;
    private HttpJson alice;
    private HttpJson bob;

    @DynamicPropertySource
    static void kafka(DynamicPropertyRegistry registry) {
        registry.add("kafka.bootstrap-servers", () -> broker().bootstrapServers());
        registry.add("spring.security.oauth2.resourceserver.jwt.jwk-set-uri", () -> {
            broker();
            return issuer.jwksUrl();
        });
    }

    private static synchronized BrokerFixture broker() {
        if (broker == null) {
            issuer = TestIssuer.start();
            broker = BrokerFixture.startOAuthBearer(issuer.jwksUrl(), TestIssuer.ISSUER, TestIssuer.AUDIENCE);
            broker.createTopic("secured", 1);
            broker.createTopic("alice-only", 1);
            // Only alice may write alice-only; bob may see it but not write it (nor anything else).
            broker.createAcls(List.of(
                allow("User:alice", AclOperation.WRITE, "alice-only"),
                allow("User:alice", AclOperation.DESCRIBE, "alice-only"),
                allow("User:bob", AclOperation.DESCRIBE, "alice-only")));
        }
        return broker;
    }

    private static AclBinding allow(String principal, AclOperation operation, String topic) {
        return new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
            new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }

    /** A proxy whose issuer's keys cannot be fetched (nothing listens where they should be). */
    private ConfigurableApplicationContext keyless;
    private HttpJson keylessAnonymous;

    @BeforeAll
    void clients() throws IOException {
        int keylessPort;
        int closedPort;
        keylessPort = TestPorts.freePort();
        closedPort = TestPorts.freePort();
        keyless = new SpringApplicationBuilder(RestProxyApplication.class).run(
            "--server.port=" + keylessPort,
            "--kafka.bootstrap-servers=" + broker.bootstrapServers(),
            "--kafka.security-protocol=SASL_PLAINTEXT",
            "--rest-proxy.authentication.method=bearer",
            "--spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:" + closedPort + "/jwks.json");
        keylessAnonymous = new HttpJson("http://127.0.0.1:" + keylessPort);
        // After the second proxy started: starting an application resets the logging system.
        logs = LogCapture.open();
        anonymous = new HttpJson("http://127.0.0.1:" + port);
        alice = anonymous.withBearer(issuer.token("alice", Duration.ofMinutes(30)));
        bob = anonymous.withBearer(issuer.token("bob", Duration.ofMinutes(30)));
    }

    @AfterAll
    void stop() {
        try {
            logs.close();
            keyless.close();
        } finally {
            try {
                broker.close();
            } finally {
                issuer.close();
            }
        }
    }

    @Test
    void withoutTokenAnswers401WithBearerChallenge() {
        Response response = anonymous.get("/topics");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"tributary\"");
        assertThat(response.errorCode()).isEqualTo(40101);
        assertThat(response.body().get("message").asString()).contains("Bearer");
    }

    @Test
    void tokenSignedByAnotherKeyAnswers401() {
        Response response = anonymous.withBearer(issuer.forged("alice")).get("/topics");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).startsWith("Bearer realm=\"tributary\", error=\"invalid_token\"");
        assertThat(response.errorCode()).isEqualTo(40101);
    }

    @Test
    void tokenForAnotherAudienceAnswers401() {
        Response response = anonymous.withBearer(issuer.forAudience("alice", "someone-else")).get("/topics");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).contains("error=\"invalid_token\"");
        assertThat(response.errorCode()).isEqualTo(40101);
        assertThat(response.body().get("message").asString()).contains("aud");
    }

    @Test
    void unsignedMacedWithThePublicKeyAudiencelessOrNotYetValidTokensAnswer401() {
        Map<String, String> tokens = Map.of(
            "alg=none", issuer.unsigned("alice"),
            "HS256 with the public key as secret", issuer.hmacWithPublicKey("alice"),
            "no aud", issuer.withoutAudience("alice"),
            "nbf in 5 minutes", issuer.notYetValid("alice", Duration.ofMinutes(5)));

        tokens.forEach((what, token) -> {
            Response response = anonymous.withBearer(token).get("/topics");

            assertThat(response.status()).as(what).isEqualTo(401);
            assertThat(response.header("WWW-Authenticate")).as(what).contains("error=\"invalid_token\"");
            assertThat(response.errorCode()).as(what).isEqualTo(40101);
        });
        this.tokens.current("alice").ifPresent(held -> assertThat(tokens.values())
            .as("no refused token is offered to the clients").doesNotContain(held.value()));
    }

    @Test
    void expiredTokenAnswers401() {
        Response response = anonymous.withBearer(issuer.expired("alice", Duration.ofMinutes(5))).get("/topics");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).contains("error=\"invalid_token\"");
        assertThat(response.errorCode()).isEqualTo(40101);
        assertThat(response.body().get("message").asString()).containsIgnoringCase("expired");
    }

    @Test
    void issuerKeysOutOfReachAnswer503() {
        Response response = keylessAnonymous.withBearer(issuer.token("alice", Duration.ofMinutes(10))).get("/topics");

        assertThat(response.status()).as(response.text()).isEqualTo(503);
        assertThat(response.errorCode()).isEqualTo(503);
        assertThat(response.header("WWW-Authenticate")).isNull();
    }

    @Test
    void basicCredentialsAreNotABearerToken() {
        Response response = anonymous.as("alice", "a-password").get("/topics");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).startsWith("Bearer realm=\"tributary\"");
    }

    @Test
    void healthAndApiDocsStayOpenAndTheDocsAskForABearerToken() {
        assertThat(anonymous.get("/actuator/health").status()).isIn(200, 503);
        Response apiDocs = anonymous.get("/v3/api-docs");

        assertThat(apiDocs.status()).isEqualTo(200);
        assertThat(apiDocs.body().get("components").get("securitySchemes").get("bearer").get("scheme").asString())
            .isEqualTo("bearer");
        assertThat(apiDocs.body().get("components").get("securitySchemes").has("basic")).isFalse();
    }

    @Test
    void produceWithoutWriteAclAnswers403WithKafkaError() {
        Response response = bob.post("/topics/secured", JSON, "{\"records\":[{\"value\":{\"by\":\"bob\"}}]}");

        assertThat(response.status()).as(response.text()).isEqualTo(403);
        assertThat(response.errorCode()).isEqualTo(40301);
        assertThat(response.body().get("message").asString()).contains("TopicAuthorizationException");
    }

    @Test
    void theBrokersSeeTheTokensSubjectAsPrincipal() {
        // The authorizer follows ACL changes from ZooKeeper: wait until alice's WRITE has arrived.
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Response response = alice.post("/topics/alice-only", JSON, "{\"records\":[{\"value\":\"by alice\"}]}");
            assertThat(response.status()).as(response.text()).isEqualTo(200);
            assertThat(response.body().get("offsets").get(0).get("error_code").isNull()).as(response.text()).isTrue();
        });

        Response byBob = bob.post("/topics/alice-only", JSON, "{\"records\":[{\"value\":\"by bob\"}]}");

        // Only User:alice may write there: what landed was written with alice's token, as alice.
        assertThat(byBob.status()).isEqualTo(200);
        assertThat(byBob.body().get("offsets").get(0).get("error_code").asInt()).as(byBob.text()).isEqualTo(40301);
        assertThat(broker.recordValues("alice-only")).contains("\"by alice\"").doesNotContain("\"by bob\"");
    }

    @Test
    void consumerInstanceBelongsToTheSubjectThatCreatedIt() {
        assertThat(alice.post("/consumers/alice-group", V2, "{\"name\":\"alices\",\"format\":\"json\"}").status())
            .isEqualTo(200);
        String instance = "/consumers/alice-group/instances/alices";
        assertThat(alice.post(instance + "/subscription", V2, "{\"topics\":[\"alice-only\"]}").status())
            .isEqualTo(204);

        Response asBob = bob.get(instance + "/subscription");
        Response deleteAsBob = bob.delete(instance);
        Response asAliceWithAnotherToken = anonymous.withBearer(issuer.token("alice", Duration.ofMinutes(20)))
            .get(instance + "/subscription");

        assertThat(asBob.status()).isEqualTo(403);
        assertThat(asBob.errorCode()).isEqualTo(40301);
        assertThat(deleteAsBob.status()).isEqualTo(403);
        assertThat(asAliceWithAnotherToken.status()).as(asAliceWithAnotherToken.text()).isEqualTo(200);
        assertThat(asAliceWithAnotherToken.body().get("topics").get(0).asString()).isEqualTo("alice-only");
        assertThat(alice.delete(instance).status()).isEqualTo(204);
    }

    @Test
    void theCallersClientsUseItsLatestToken() {
        String shorter = issuer.token("carol", Duration.ofMinutes(10));
        String longer = issuer.token("carol", Duration.ofMinutes(40));

        assertThat(anonymous.withBearer(shorter).get("/topics").status()).isEqualTo(200);
        assertThat(tokens.current("carol")).map(CallerToken::value).contains(shorter);
        assertThat(anonymous.withBearer(longer).get("/topics").status()).isEqualTo(200);
        assertThat(tokens.current("carol")).map(CallerToken::value).contains(longer);
        // The older token still signs the caller in, but does not take its clients back to it.
        assertThat(anonymous.withBearer(shorter).get("/topics").status()).isEqualTo(200);
        assertThat(tokens.current("carol")).map(CallerToken::value).contains(longer);
    }

    @Test
    void aFresherTokenServesTheCallersNextConnection() {
        // The brokers refuse a token without iat, which the proxy takes: the brokers check the caller's own token.
        HttpJson withRefused = anonymous.withBearer(issuer.withoutIssuedAt("erin", Duration.ofMinutes(30)));
        Response refused = withRefused.get("/topics");
        assertThat(refused.status()).as(refused.text()).isEqualTo(401);
        assertThat(refused.errorCode()).isEqualTo(40101);
        assertThat(refused.body().get("message").asString()).contains("SaslAuthenticationException");
        KafkaLogin login = KafkaLogin.bearer("erin", tokens.id());
        assertThat(pool.logins()).contains(login);

        // The same Admin client, whose login (JAAS Subject) still holds the refused token for the next
        // 24 minutes, connects with the fresher one: connections take the caller's latest token.
        HttpJson withFresher = anonymous.withBearer(issuer.token("erin", Duration.ofMinutes(60)));
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Response listed = withFresher.get("/topics");
            assertThat(listed.status()).as(listed.text()).isEqualTo(200);
        });
    }

    @Test
    void aCallersClientsCloseWhenItsTokenExpires() {
        String shortLived = issuer.token("dave", Duration.ofSeconds(6));
        HttpJson dave = anonymous.withBearer(shortLived);
        KafkaLogin login = KafkaLogin.bearer("dave", tokens.id());

        Response listed = dave.get("/topics");
        assertThat(listed.status()).as(listed.text()).isEqualTo(200);
        assertThat(pool.logins()).contains(login);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !pool.logins().contains(login));
        // Spring Security would still take the token (60 s of clock skew); the proxy does not, as
        // its clients could not log in with it.
        Response afterExpiry = dave.get("/topics");
        assertThat(afterExpiry.status()).isEqualTo(401);
        assertThat(afterExpiry.header("WWW-Authenticate")).contains("error=\"invalid_token\"");
        assertThat(pool.logins()).doesNotContain(login);
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void noTokenReachesALogLine() {
        anonymous.withBearer(issuer.forged("bob")).get("/brokers");
        alice.get("/brokers");
        bob.post("/topics/secured", JSON, "{\"records\":[{\"value\":1}]}");

        // Neither a whole token nor its signature, which alone would let no one in but is the token's secret part.
        logs.assertNoLineContains(issuer.minted().stream().map(t -> t.substring(t.lastIndexOf('.') + 1))
            .toArray(String[]::new));
    }

}
