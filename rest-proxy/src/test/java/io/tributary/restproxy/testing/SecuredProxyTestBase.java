package io.tributary.restproxy.testing;

import io.tributary.restproxy.RestProxyApplication;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the tests of the proxy with {@code rest-proxy.authentication.method=basic} in front of the
 * shared secured broker ({@link BrokerFixture#sharedSasl()}: SCRAM-SHA-512 logins, Kafka's
 * {@code StandardAuthorizer}): HTTP callers sign in with the broker's users. Subclasses share one
 * proxy (Spring's context cache); each creates its users, topics and ACLs in its {@code @BeforeAll},
 * under names no other test uses, since the broker is shared.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SpringBootTest(classes = RestProxyApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "rest-proxy.authentication.method=basic",
        "kafka.security-protocol=SASL_PLAINTEXT",
        // A produce the broker refuses fails within 5 s, not the producer's 60 s.
        "kafka.producer.[max.block.ms]=5000",
        // Above the long polls of the tests' reads.
        "spring.mvc.async.request-timeout=10s"})
public abstract class SecuredProxyTestBase {

    @LocalServerPort
    protected int port;

    @DynamicPropertySource
    static void kafka(DynamicPropertyRegistry registry) {
        registry.add("kafka.bootstrap-servers", () -> BrokerFixture.sharedSasl().bootstrapServers());
    }

    /** The shared secured broker. */
    protected static BrokerFixture broker() {
        return BrokerFixture.sharedSasl();
    }

    /** An HTTP client of this test's proxy that sends no credentials. */
    protected HttpJson anonymous() {
        return new HttpJson("http://127.0.0.1:" + port);
    }

    /** An HTTP client of this test's proxy signed in as the broker's super user ({@value BrokerFixture#SUPER_USER}). */
    protected HttpJson superUser() {
        return anonymous().as(BrokerFixture.SUPER_USER, BrokerFixture.SUPER_USER_PASSWORD);
    }
}
