package io.tributary.broker.cluster;

import io.tributary.broker.cluster.Controller.FencedControllerException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.kafka.common.TopicPartition;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's epoch and its fenced writes. Becoming controller increments
 * {@code /controller_epoch} ({@link #incrementEpoch}); every later write is one ZooKeeper
 * transaction (multi-op) that also checks that node's version, so a deposed controller's late
 * write fails, and the version of the node written, so a concurrent change (a leader shrinking
 * its ISR) is not overwritten.
 *
 * <p>Invariant: {@link #controllerEpoch()} is the epoch this broker wrote to
 * {@code /controller_epoch}, and every write checks the ZooKeeper version that write gave the
 * node; nothing is written before the first {@link #incrementEpoch}.
 *
 * <p>Thread safety: the writes and {@link #incrementEpoch} are called on the controller's event
 * thread only; {@link #controllerEpoch()} may be read from any thread.
 *
 * <p>Errors: a write whose epoch check fails because the epoch moved on throws
 * {@link FencedControllerException}, and the controller resigns; a write that meets a changed
 * node while the epoch is still ours returns false and asks, after 200 ms, for another
 * reconciliation (the watch brings the new state meanwhile); any other ZooKeeper failure throws
 * {@link ZooKeeperClientException}.
 *
 * <p>Logs on the {@link Controller}'s logger, so the controller's log lines read as before.
 */
final class ControllerWrites {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final int brokerId;
    private final KafkaZkClient zkClient;
    private final Runnable reconcileAgain;
    private volatile int epoch;
    private volatile int epochZkVersion;

    /**
     * @param reconcileAgain asks for another reconciliation, called from a timer thread after a
     *                       write met a changed node
     */
    ControllerWrites(int brokerId, KafkaZkClient zkClient, Runnable reconcileAgain) {
        this.brokerId = brokerId;
        this.zkClient = zkClient;
        this.reconcileAgain = reconcileAgain;
    }

    /** The epoch of the active controller. */
    int controllerEpoch() {
        return epoch;
    }

    /**
     * Writes the next epoch to {@code /controller_epoch} (1 when the node is absent), reading
     * again when another broker wrote it in between.
     */
    void incrementEpoch() {
        while (true) {
            Optional<KafkaZkClient.Versioned> current = zkClient.getDataAndVersion(ZkPaths.CONTROLLER_EPOCH);
            try {
                if (current.isEmpty()) {
                    zkClient.curator().create().forPath(ZkPaths.CONTROLLER_EPOCH, "1".getBytes(StandardCharsets.UTF_8));
                    epoch = 1;
                    epochZkVersion = 0;
                } else {
                    int next = Integer.parseInt(new String(current.get().data(), StandardCharsets.UTF_8).trim()) + 1;
                    var stat = zkClient.curator().setData().withVersion(current.get().version())
                        .forPath(ZkPaths.CONTROLLER_EPOCH, Integer.toString(next).getBytes(StandardCharsets.UTF_8));
                    epoch = next;
                    epochZkVersion = stat.getVersion();
                }
                return;
            } catch (KeeperException.NodeExistsException | KeeperException.BadVersionException e) {
                // another controller raced us between read and write: read again
            } catch (Exception e) {
                throw new ZooKeeperClientException("Could not increment the controller epoch: " + e, e);
            }
        }
    }

    /** New partitions' state nodes written per ZooKeeper transaction: a few hundred bytes each, far below its 1 MB limit. */
    static final int CREATE_BATCH = 100;

    /**
     * Creates the state nodes of new partitions of {@code topic}, and their parents where missing, at
     * most {@link #CREATE_BATCH} partitions per transaction: a topic of a thousand partitions is ten
     * writes, not a thousand. A batch that meets a node created meanwhile writes nothing, and the rest
     * waits for the reconciliation that follows (as for one partition).
     *
     * @param states the new partitions' first states, by partition; all of {@code topic}
     */
    void createPartitionStates(String topic, Map<TopicPartition, LeaderAndIsr> states) {
        if (states.isEmpty()) {
            return;
        }
        boolean parentExists = zkClient.getDataAndVersion(ZkPaths.partitions(topic)).isPresent();
        Set<String> existing = parentExists ? Set.copyOf(zkClient.getChildren(ZkPaths.partitions(topic))) : Set.of();
        List<Map.Entry<TopicPartition, LeaderAndIsr>> entries = new ArrayList<>(states.entrySet());
        for (int from = 0; from < entries.size(); from += CREATE_BATCH) {
            List<Map.Entry<TopicPartition, LeaderAndIsr>> batch = entries.subList(from,
                Math.min(entries.size(), from + CREATE_BATCH));
            List<CuratorOp> ops = new ArrayList<>();
            try {
                ops.add(epochCheck());
                if (!parentExists) {
                    ops.add(zkClient.curator().transactionOp().create().forPath(ZkPaths.partitions(topic)));
                }
                for (Map.Entry<TopicPartition, LeaderAndIsr> entry : batch) {
                    int partition = entry.getKey().partition();
                    if (!existing.contains(Integer.toString(partition))) {
                        ops.add(zkClient.curator().transactionOp().create().forPath(ZkPaths.partition(topic, partition)));
                    }
                    ops.add(zkClient.curator().transactionOp().create()
                        .forPath(ZkPaths.partitionState(topic, partition), entry.getValue().toJson()));
                }
            } catch (Exception e) {
                throw new ZooKeeperClientException("Could not prepare the states of new partitions of " + topic, e);
            }
            if (!fencedWrite(ops, "topic " + topic, "create leadership of " + leaders(batch))) {
                return;
            }
            parentExists = true;
        }
    }

    /** "partition 3 (leader 0, ISR [0, 1])" of each, for the log line of a batch. */
    private static String leaders(List<Map.Entry<TopicPartition, LeaderAndIsr>> batch) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<TopicPartition, LeaderAndIsr> entry : batch) {
            out.append(out.isEmpty() ? "partition " : ", partition ").append(entry.getKey().partition())
                .append(" (leader ").append(entry.getValue().leader()).append(", ISR ").append(entry.getValue().isr())
                .append(')');
        }
        return out.toString();
    }

    /**
     * @param state the new state, with the ZooKeeper version of the state it replaces
     * @return false when the partition's state changed meanwhile
     */
    boolean writePartitionState(TopicPartition tp, LeaderAndIsr state, String why) {
        try {
            List<CuratorOp> ops = List.of(epochCheck(), zkClient.curator().transactionOp().setData()
                .withVersion(state.zkVersion()).forPath(ZkPaths.partitionState(tp.topic(), tp.partition()), state.toJson()));
            return fencedWrite(ops, tp, why + ": leader " + state.leader() + ", leader epoch " + state.leaderEpoch()
                + ", ISR " + state.isr());
        } catch (FencedControllerException | ZooKeeperClientException e) {
            throw e;
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not prepare the state of " + tp, e);
        }
    }

    /**
     * @param assignment the new assignment, with the ZooKeeper version of the one it replaces
     * @return false when the topic's node changed meanwhile
     */
    boolean writeTopicAssignment(TopicAssignment assignment, String why) {
        try {
            List<CuratorOp> ops = List.of(epochCheck(), zkClient.curator().transactionOp().setData()
                .withVersion(assignment.zkVersion()).forPath(ZkPaths.topic(assignment.topic()), assignment.toJson()));
            return fencedWrite(ops, "topic " + assignment.topic(), why);
        } catch (FencedControllerException | ZooKeeperClientException e) {
            throw e;
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not prepare the assignment of " + assignment.topic(), e);
        }
    }

    /**
     * Deletes a topic in one transaction: its {@code /brokers/topics} subtree, deepest first, its
     * config node if any, and the request {@code /admin/delete_topics/<topic>}.
     *
     * @return false when a node changed meanwhile
     */
    boolean deleteTopic(String topic) {
        List<CuratorOp> ops = new ArrayList<>();
        try {
            ops.add(epochCheck());
            for (String path : zkClient.subtreeDeepestFirst(ZkPaths.topic(topic))) {
                ops.add(zkClient.curator().transactionOp().delete().forPath(path));
            }
            if (zkClient.getDataAndVersion(ZkPaths.topicConfig(topic)).isPresent()) {
                ops.add(zkClient.curator().transactionOp().delete().forPath(ZkPaths.topicConfig(topic)));
            }
            ops.add(zkClient.curator().transactionOp().delete().forPath(ZkPaths.deleteTopic(topic)));
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not prepare the deletion of " + topic, e);
        }
        return fencedWrite(ops, "topic " + topic, "delete topic " + topic);
    }

    private CuratorOp epochCheck() throws Exception {
        return zkClient.curator().transactionOp().check().withVersion(epochZkVersion).forPath(ZkPaths.CONTROLLER_EPOCH);
    }

    /**
     * @param target what is written, for the log and errors: a partition, or a topic
     * @return true when written, false when a node it writes changed meanwhile
     */
    private boolean fencedWrite(List<CuratorOp> ops, Object target, String what) {
        try {
            zkClient.curator().transaction().forOperations(ops);
            log.info("Controller {} (epoch {}): {} for {}", brokerId, epoch, what, target);
            return true;
        } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
                 | KeeperException.NoNodeException e) {
            if (!stillController()) {
                throw new FencedControllerException("the controller epoch moved on while writing " + target);
            }
            // The partition's node changed under us (e.g. its leader changed the ISR): the watch brings
            // the new state and a new reconciliation.
            reconcileLater();
            return false;
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not " + what + " for " + target + ": " + e, e);
        }
    }

    private void reconcileLater() {
        CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS).execute(reconcileAgain);
    }

    private boolean stillController() {
        return zkClient.getDataAndVersion(ZkPaths.CONTROLLER_EPOCH).map(v -> v.version() == epochZkVersion).orElse(false);
    }
}
