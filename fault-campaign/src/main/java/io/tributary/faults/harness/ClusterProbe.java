package io.tributary.faults.harness;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Asks a {@link FaultCluster}'s brokers, through a kafka-clients {@link Admin} in the host namespace, what a nemesis
 * needs to choose its target and what the campaign waits for: a partition's leader and replicas, the controller
 * (Metadata's controller id, which brokers take from ZooKeeper's {@code /controller}), and whether every partition of
 * a topic has a leader and its full ISR. Answers come from whichever broker the client asks, so they may lag
 * ZooKeeper by a metadata update. Thread-safe as {@link Admin} is; close it to close the client.
 */
public final class ClusterProbe implements AutoCloseable {

    private static final long ASK_TIMEOUT_SECONDS = 10;
    private static final long RETRY_MILLIS = 250;

    private final Admin admin;

    /** A probe with its own Admin client on {@code bootstrapServers}, short timeouts (5 s requests, 10 s calls). */
    public ClusterProbe(String bootstrapServers) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        this.admin = Admin.create(p);
    }

    /** Creates {@code topic} with replication factor 3 and {@code min.insync.replicas=2}; waits for its full ISR. */
    public void createTopic(String topic, int partitions, Duration timeout) {
        try {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + topic, e);
        }
        awaitFullIsr(topic, timeout);
    }

    /**
     * Deletes {@code topic} and waits until the cluster no longer lists it: a long campaign deletes each checked run's
     * topic, so a small log directory is not filled by the runs before.
     */
    public void deleteTopic(String topic, Duration timeout) {
        try {
            admin.deleteTopics(List.of(topic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot delete topic " + topic, e);
        }
        retry(timeout, "the deletion of " + topic, () -> admin.listTopics().names()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS).contains(topic) ? null : Boolean.TRUE);
    }

    /** The id of the leader of {@code topic}-{@code partition}, waiting up to {@code timeout} for one. */
    public int leader(String topic, int partition, Duration timeout) {
        return retry(timeout, "a leader of " + topic + "-" + partition, () -> {
            Node leader = describe(topic).partitions().get(partition).leader();
            return leader == null || leader.id() < 0 ? null : leader.id();
        });
    }

    /** The ids of the replicas of {@code topic}-{@code partition}, leader included. */
    public List<Integer> replicas(String topic, int partition, Duration timeout) {
        return retry(timeout, "the replicas of " + topic + "-" + partition,
                () -> describe(topic).partitions().get(partition).replicas().stream().map(Node::id).toList());
    }

    /**
     * The partitions of {@code topic} by partition number, as the broker asked describes them now.
     *
     * @throws IllegalStateException if no broker answers within 10 s
     */
    public Map<Integer, TopicPartitionInfo> partitions(String topic) {
        Map<Integer, TopicPartitionInfo> byPartition = new TreeMap<>();
        try {
            describe(topic).partitions().forEach(p -> byPartition.put(p.partition(), p));
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe " + topic, e);
        }
        return byPartition;
    }

    /**
     * Broker {@code brokerId}'s log directories by path (DescribeLogDirs); an offline one carries its error.
     *
     * @throws IllegalStateException if the broker does not answer within 10 s
     */
    public Map<String, LogDirDescription> logDirs(int brokerId) {
        try {
            return admin.describeLogDirs(List.of(brokerId)).allDescriptions()
                    .get(ASK_TIMEOUT_SECONDS, TimeUnit.SECONDS).get(brokerId);
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe broker " + brokerId + "'s log directories", e);
        }
    }

    /** The id of the controller, waiting up to {@code timeout} for one. */
    public int controller(Duration timeout) {
        return retry(timeout, "a controller", () -> {
            Node controller = admin.describeCluster().controller().get(ASK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return controller == null || controller.id() < 0 ? null : controller.id();
        });
    }

    /**
     * Starts a reassignment of {@code topic}-{@code partition} to {@code replicas} (AlterPartitionReassignments) and
     * returns without waiting for the controller's answer: the returned future completes when the controller has
     * recorded the reassignment (not when it has finished) or fails with its error.
     */
    public KafkaFuture<Void> reassign(String topic, int partition, List<Integer> replicas) {
        TopicPartition tp = new TopicPartition(topic, partition);
        return admin.alterPartitionReassignments(Map.of(tp, Optional.of(new NewPartitionReassignment(replicas))))
                .values().get(tp);
    }

    /**
     * Whether a reassignment of {@code topic}-{@code partition} is in progress (ListPartitionReassignments).
     *
     * @throws IllegalStateException if no broker answers within 10 s
     */
    public boolean reassigning(String topic, int partition) {
        TopicPartition tp = new TopicPartition(topic, partition);
        try {
            return admin.listPartitionReassignments(Set.of(tp)).reassignments()
                    .get(ASK_TIMEOUT_SECONDS, TimeUnit.SECONDS).containsKey(tp);
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the reassignments of " + tp, e);
        }
    }

    /**
     * Asks the controller to elect the preferred replica of {@code topic}-{@code partition} (ElectLeaders, PREFERRED)
     * without waiting; the future completes with the partition's error, empty on success ({@code
     * ElectionNotNeededException} when the preferred replica leads already).
     */
    public KafkaFuture<Optional<Throwable>> electPreferred(String topic, int partition) {
        TopicPartition tp = new TopicPartition(topic, partition);
        return admin.electLeaders(ElectionType.PREFERRED, Set.of(tp)).partitions()
                .thenApply(results -> results.getOrDefault(tp, Optional.empty()));
    }

    /** True if every partition of {@code topic} has a leader and all its replicas in the ISR, per the broker asked. */
    public boolean fullIsr(String topic) {
        try {
            return describe(topic).partitions().stream().allMatch(ClusterProbe::fullIsr);
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean fullIsr(TopicPartitionInfo p) {
        return p.leader() != null && p.leader().id() >= 0 && p.isr().size() == p.replicas().size();
    }

    /**
     * Waits until {@link #fullIsr(String)}.
     *
     * @throws IllegalStateException after {@code timeout}, with the last description seen
     */
    public void awaitFullIsr(String topic, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "nothing";
        while (true) {
            try {
                TopicDescription d = describe(topic);
                if (d.partitions().stream().allMatch(ClusterProbe::fullIsr)) {
                    return;
                }
                last = d.partitions().toString();
            } catch (Exception e) {
                last = e.toString();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(topic + " is not fully in sync after " + timeout + ": " + last);
            }
            pause();
        }
    }

    private TopicDescription describe(String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(ASK_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .get(topic);
    }

    @FunctionalInterface
    private interface Question<T> {
        /** The answer, or null if there is none yet. */
        T ask() throws Exception;
    }

    private static <T> T retry(Duration timeout, String what, Question<T> question) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception lastError = null;
        while (true) {
            try {
                T answer = question.ask();
                if (answer != null) {
                    return answer;
                }
            } catch (Exception e) {
                lastError = e;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no answer for " + what + " within " + timeout, lastError);
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
