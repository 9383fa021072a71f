package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedZooKeeperTest {

    @TempDir
    Path dir;

    private static Set<String> zooKeeperThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
            .filter(n -> n.startsWith("NIOServerCxnFactory") || n.startsWith("SyncThread") || n.startsWith("ProcessThread")
                || n.startsWith("SessionTracker") || n.startsWith("RequestThrottler"))
            .collect(Collectors.toSet());
    }

    @Test
    void aTakenPortFailsTheStartClearlyAndLeavesNothingRunning() throws Exception {
        Set<String> before = zooKeeperThreads();
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> EmbeddedZooKeeper.start(dir.toFile(), taken.getLocalPort(), 200, true))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Could not start the embedded ZooKeeper on port " + taken.getLocalPort());
        }
        assertThat(zooKeeperThreads()).isSubsetOf(before);
    }

    @Test
    void restartsOnItsDataAndExpiresThePreviousRunsSessions() throws Exception {
        long staleSession;
        EmbeddedZooKeeper first = EmbeddedZooKeeper.start(dir.toFile(), 0, 200, true);
        KafkaZkClient client = KafkaZkClient.connect(first.connectString(), 4000, 10_000);
        client.createEphemeral("/owned", new byte[0]);
        staleSession = client.sessionId();
        // Stop the server without closing the session, as a killed broker would.
        first.close();
        client.close();
        try (EmbeddedZooKeeper second = EmbeddedZooKeeper.start(dir.toFile(), 0, 200, true);
             KafkaZkClient fresh = KafkaZkClient.connect(second.connectString(), 4000, 10_000)) {
            assertThat(fresh.getDataAndVersion("/owned")).as("ephemeral node of expired session %s", staleSession).isEmpty();
        }
    }
}
