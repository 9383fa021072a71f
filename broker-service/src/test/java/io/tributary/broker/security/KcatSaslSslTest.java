package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.config.EndPoint;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.TestCertificates;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's kcat (librdkafka 2.0.2, which sends the legacy SCRAM client-final nonce) produces and
 * consumes over SASL_SSL with SCRAM-SHA-512, against a broker with
 * {@code broker.sasl-scram-accept-legacy-client-nonce=true}. Needs {@code kcat} on the PATH.
 */
class KcatSaslSslTest {

    private static final String PASSWORD = "kcat-user-secret";

    @TempDir
    static Path dir;
    static TestCertificates certificates;
    static TestBroker broker;
    static LogCapture logs;

    @BeforeAll
    static void start() throws Exception {
        logs = LogCapture.open();
        certificates = TestCertificates.create(dir.resolve("certs"));
        Path store = certificates.keyStore("broker", "CN=localhost");
        broker = TestBroker.start(dir.resolve("broker"), Map.of(
            "broker.listeners", "SASL_SSL://127.0.0.1:" + TestBroker.freePort() + ",INTERNAL://127.0.0.1:"
                + TestBroker.freePort(),
            "broker.listener-security-protocol-map", "SASL_SSL:SASL_SSL,INTERNAL:PLAINTEXT",
            "broker.inter-broker-listener-name", "INTERNAL",
            "broker.ssl-keystore-type", "PKCS12",
            "broker.ssl-keystore-location", store.toString(),
            "broker.ssl-keystore-password", TestCertificates.PASSWORD,
            "broker.sasl-enabled-mechanisms", "SCRAM-SHA-512",
            "broker.sasl-scram-accept-legacy-client-nonce", "true"));
        EndPoint internal = broker.server().boundEndPoints().stream().filter(b -> b.listenerName().equals("INTERNAL"))
            .findFirst().orElseThrow();
        try (Admin admin = Clients.admin(internal.host() + ":" + internal.port())) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("kcat-user",
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), PASSWORD))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
        try (LogCapture captured = logs) {
            captured.assertNoLineContains(PASSWORD, TestCertificates.PASSWORD);
        }
    }

    private static List<String> kcat(String... args) {
        EndPoint e = broker.server().boundEndPoints().stream().filter(b -> b.listenerName().equals("SASL_SSL"))
            .findFirst().orElseThrow();
        List<String> command = new ArrayList<>(List.of("kcat", "-b", e.host() + ":" + e.port(),
            "-X", "security.protocol=SASL_SSL", "-X", "sasl.mechanisms=SCRAM-SHA-512",
            "-X", "sasl.username=kcat-user", "-X", "sasl.password=" + PASSWORD,
            "-X", "ssl.ca.location=" + certificates.caPem()));
        command.addAll(List.of(args));
        return command;
    }

    @Test
    void kcatProducesAndConsumesWithScramOverTls() throws Exception {
        Path input = dir.resolve("lines.txt");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            lines.add("secured line " + i);
        }
        Files.write(input, lines, StandardCharsets.UTF_8);
        Process producer = new ProcessBuilder(kcat("-t", "kcat-secured", "-P")).redirectInput(input.toFile())
            .redirectErrorStream(true).start();
        String producerOutput = new String(producer.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(producer.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(producer.exitValue()).as("kcat producer output: %s", producerOutput).isZero();

        Process consumer = new ProcessBuilder(kcat("-t", "kcat-secured", "-C", "-o", "beginning", "-e", "-q",
            "-f", "%s\\n")).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        ByteArrayOutputStream consumed = new ByteArrayOutputStream();
        consumer.getInputStream().transferTo(consumed);
        assertThat(consumer.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(consumed.toString(StandardCharsets.UTF_8).lines().toList()).isEqualTo(lines);
    }
}
