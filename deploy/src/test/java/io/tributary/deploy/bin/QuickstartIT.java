package io.tributary.deploy.bin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.TestPorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's {@code bin/quickstart} when it cannot start: a port taken makes it refuse before starting any
 * part, and when a part fails while starting it stops the others and exits non-zero; either way it names
 * the part, its port and the variable that moves it. (Its start, banner and stop on SIGTERM are checked
 * by {@code ReadmeTourIT}, which runs the README's tour on one quickstart.)
 */
class QuickstartIT {

    @TempDir
    Path dir;

    private int kafkaPort;
    private int brokerHttpPort;
    private int zookeeperPort;
    private int restProxyPort;
    private int uiPort;
    private Map<String, String> env;
    private Process quickstart;

    @BeforeEach
    void ports() {
        int base = TestPorts.consecutive(5);
        kafkaPort = base;
        brokerHttpPort = base + 1;
        zookeeperPort = base + 2;
        restProxyPort = base + 3;
        uiPort = base + 4;
        env = new HashMap<>(Map.of("KAFKA_PORT", Integer.toString(kafkaPort),
            "BROKER_HTTP_PORT", Integer.toString(brokerHttpPort),
            "BROKER_EMBEDDED_ZOOKEEPER_PORT", Integer.toString(zookeeperPort),
            "REST_PROXY_PORT", Integer.toString(restProxyPort),
            "ADMIN_UI_PORT", Integer.toString(uiPort),
            "DATA_DIR", dir.resolve("data").toString(),
            "LOG_DIR", dir.resolve("logs").toString(),
            "JAVA_OPTS", BinScript.jvmFlags() + " -Xmx256m"));
    }

    @AfterEach
    void stopQuickstart() throws InterruptedException {
        if (quickstart != null && quickstart.isAlive()) {
            List<ProcessHandle> parts = parts();
            quickstart.destroy();
            if (!quickstart.waitFor(90, TimeUnit.SECONDS)) {
                quickstart.destroyForcibly();
            }
            parts.forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void refusesToStartWhenAPortIsTakenNamingThePartThePortAndItsVariable() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), uiPort));
            BinScript.Result result = BinScript.run(dir, env, null, "quickstart");

            assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
            assertThat(result.stderr()).contains("the admin UI cannot start", Integer.toString(uiPort), "ADMIN_UI_PORT");
            // Checked before any part started.
            assertThat(dir.resolve("logs")).doesNotExist();
        }
    }

    @Test
    void stopsTheOthersAndExitsNonZeroWhenAPartFailsWhileStarting() throws Exception {
        // Taken on 127.0.0.2 only, this port looks free on 127.0.0.1, so the broker does start and then
        // fails to bind its HTTP port on all interfaces.
        try (ServerSocket taken = new ServerSocket()) {
            try {
                taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), brokerHttpPort));
            } catch (IOException e) {
                Assumptions.abort("127.0.0.2 is not a loopback address here (it is on Linux): " + e);
            }
            quickstart = BinScript.start(dir, env, "quickstart");
            await().atMost(Duration.ofSeconds(10)).until(() -> parts().size() == 3);
            List<ProcessHandle> parts = parts();
            assertThat(quickstart.waitFor(180, TimeUnit.SECONDS)).isTrue();

            assertThat(quickstart.exitValue()).as("%s%n%s", stdout(), stderr()).isEqualTo(1);
            assertThat(stderr()).contains("the broker exited while starting", "HTTP port",
                Integer.toString(brokerHttpPort), "BROKER_HTTP_PORT=<port> bin/quickstart",
                "Last lines of " + dir.resolve("logs/broker.log"), "Port " + brokerHttpPort + " was already in use");
            assertThat(stdout()).doesNotContain("Tributary is ready.");
            assertThat(parts).noneMatch(ProcessHandle::isAlive);
        }
    }

    private String stdout() {
        return BinScript.stdout(dir, "quickstart");
    }

    private String stderr() {
        return BinScript.stderr(dir, "quickstart");
    }

    /** The JVMs the script started (not the short-lived shells of its readiness checks). */
    private List<ProcessHandle> parts() {
        return quickstart.descendants().filter(p -> p.info().commandLine().orElse("").contains(" -jar ")).toList();
    }
}
