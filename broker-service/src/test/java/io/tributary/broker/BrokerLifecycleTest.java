package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker started and stopped several times in one JVM (tests, embedding) leaves no threads
 * behind, also when its start fails.
 */
class BrokerLifecycleTest {

    /** JVM-wide helpers that outlive any one broker by design. */
    private static final List<String> SHARED = List.of("CompletableFutureDelayScheduler", "ForkJoinPool",
        "globalEventExecutor", "process reaper", "Attach Listener", "surefire", "junit", "kafka-admin-client",
        "kafka-producer-network-thread", "Common-Cleaner");

    @TempDir
    Path dir;

    @Test
    void restartingInTheSameJvmLeavesNoThreadsBehind() throws Exception {
        Set<Thread> before = liveThreads();
        TestBroker broker = TestBroker.start(dir.resolve("restarts"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("restarted", 1, (short) 1))).all().get();
        }
        for (int i = 0; i < 2; i++) {
            broker.restart();
            try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
                producer.send(new ProducerRecord<>("restarted", new byte[]{(byte) i})).get();
            }
        }
        broker.close();
        assertNoThreadsLeftBesides(before);
    }

    @Test
    void aFailedStartLeavesNoThreadsBehind() throws Exception {
        Set<Thread> before = liveThreads();
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> TestBroker.start(dir.resolve("failed"),
                Map.of("broker.listeners", "PLAINTEXT://127.0.0.1:" + taken.getLocalPort())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Could not bind");
        }
        assertNoThreadsLeftBesides(before);
    }

    private static Set<Thread> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).collect(Collectors.toSet());
    }

    /**
     * Waits (threads end asynchronously after close) until only threads from before, or shared ones,
     * are alive. Polled on this thread: Awaitility's own polling thread would count as one left behind.
     */
    private static void assertNoThreadsLeftBesides(Set<Thread> before) {
        await().atMost(Duration.ofSeconds(15)).pollInSameThread().untilAsserted(() ->
            assertThat(liveThreads().stream().filter(t -> !before.contains(t)).map(Thread::getName)
                .filter(n -> SHARED.stream().noneMatch(n::startsWith)).sorted().toList())
                .as("threads left behind by stopped brokers").isEmpty());
    }
}
