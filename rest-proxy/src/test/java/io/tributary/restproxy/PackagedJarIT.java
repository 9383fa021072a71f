package io.tributary.restproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.testing.TestPorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/** The proxy as users start it: {@code java -jar rest-proxy/target/rest-proxy-<version>.jar}. */
class PackagedJarIT {

    @Test
    void theJarStartsServesProduceAndStopsOnSigterm() throws Exception {
        BrokerFixture broker = BrokerFixture.get();
        broker.createTopic("packaged", 1);
        Path jar = Path.of(System.getProperty("rest-proxy.jar"));
        assertThat(jar).exists();
        int port;
        port = TestPorts.freePort();
        Path log = Files.createTempFile("rest-proxy-jar", ".log");
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString()));
        command.addAll(BrokerFixture.testJvmFlags());
        command.addAll(List.of("-jar", jar.toString(), "--server.port=" + port));
        ProcessBuilder builder = new ProcessBuilder(command)
            .redirectErrorStream(true).redirectOutput(log.toFile());
        // The bootstrap servers come from the environment, as in a container.
        builder.environment().put("KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers());
        Process process = builder.start();
        try {
            HttpJson http = new HttpJson("http://127.0.0.1:" + port);
            awaitReady(http, process, log);
            Response produced = http.post("/topics/packaged", "application/vnd.kafka.json.v2+json",
                "{\"records\":[{\"value\":\"from the jar\"}]}");
            assertThat(produced.status()).isEqualTo(200);
            assertThat(produced.body().get("offsets").get(0).get("offset").asLong()).isZero();
        } finally {
            process.destroy();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Files.readString(log)).doesNotContain("Exception in thread");
    }

    private static void awaitReady(HttpJson http, Process process, Path log) throws Exception {
        try {
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
                if (!process.isAlive()) {
                    throw new AssertionError("the proxy exited:\n" + Files.readString(log));
                }
                try {
                    return http.get("/actuator/health/readiness").status() == 200;
                } catch (IllegalStateException notYetListening) {
                    return false; // connection refused while starting
                }
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("the proxy was not ready within 120 s:\n" + Files.readString(log));
        }
    }
}
