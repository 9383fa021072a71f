package io.tributary.restproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.testing.TestPorts;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** A proxy whose bootstrap servers do not answer. */
@SpringBootTest(classes = RestProxyApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"kafka.admin.[default.api.timeout.ms]=1500", "kafka.admin.[request.timeout.ms]=1000",
        "logging.level.org.apache.kafka.clients.NetworkClient=ERROR"})
class UnreachableClusterTest {

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void deadBootstrap(DynamicPropertyRegistry registry) throws IOException {
        int port;
        port = TestPorts.freePort();
        int closedPort = port;
        registry.add("kafka.bootstrap-servers", () -> "127.0.0.1:" + closedPort);
    }

    @Test
    void kafkaCallsThatTimeOutAreRetriableErrors50003() {
        Response response = new HttpJson("http://127.0.0.1:" + port).get("/topics");

        assertThat(response.status()).isEqualTo(500);
        assertThat(response.errorCode()).isEqualTo(50003);
    }

    @Test
    void readinessIsDownWhileLivenessIsUp() {
        HttpJson http = new HttpJson("http://127.0.0.1:" + port);

        Response readiness = http.get("/actuator/health/readiness");
        Response liveness = http.get("/actuator/health/liveness");

        assertThat(readiness.status()).isEqualTo(503);
        assertThat(readiness.body().get("status").asString()).isEqualTo("DOWN");
        assertThat(readiness.body().path("components").path("kafka").path("status").asString())
            .as("the kafka indicator, shown in the group").isEqualTo("DOWN");
        assertThat(liveness.status()).isEqualTo(200);
    }
}
