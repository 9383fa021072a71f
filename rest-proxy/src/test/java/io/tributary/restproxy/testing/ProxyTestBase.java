package io.tributary.restproxy.testing;

import io.tributary.restproxy.RestProxyApplication;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the HTTP tests: one proxy on a random port (Spring's context cache shares it between
 * test classes) talking to the shared {@link BrokerFixture} broker.
 */
@SpringBootTest(classes = RestProxyApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "kafka.producer.[max.block.ms]=3000",
        "rest-proxy.max-request-body-size=4MB",
        // Below the long polls of some tests, which must set their own timeout rather than rely on this.
        "spring.mvc.async.request-timeout=2s"})
public abstract class ProxyTestBase {

    @LocalServerPort
    protected int port;

    protected HttpJson http;

    @DynamicPropertySource
    static void kafka(DynamicPropertyRegistry registry) {
        registry.add("kafka.bootstrap-servers", () -> BrokerFixture.get().bootstrapServers());
    }

    @BeforeEach
    void client() {
        http = new HttpJson("http://127.0.0.1:" + port);
    }

    protected static BrokerFixture broker() {
        return BrokerFixture.get();
    }
}
