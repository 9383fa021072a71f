package io.tributary.broker.simulation;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.log.FetchIsolation;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.replica.Partition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.utils.Utils;

/**
 * What replication promises, checked after every simulated event ({@link #checkAfterEvent}), at
 * every leader change ({@link #becameLeader}) and at the end ({@link #checkAcknowledgedInLeaders}):
 * <ul>
 *   <li>at most one broker, and one run of it, leads a partition in a leader epoch, ever: a broker
 *       that crashes and starts again leads only in an epoch elected after its new registration;</li>
 *   <li>the leader epoch stored in ZooKeeper never goes back;</li>
 *   <li>the ISR stored in ZooKeeper is never empty;</li>
 *   <li>a leader's high watermark never goes back within its epoch, and once a new leader moves
 *       it, it is not below any offset acknowledged before the epoch began;</li>
 *   <li>no acknowledged acks=all batch is lost: a new (clean) leader holds every one, with the
 *       same records at the same offsets, and so does the final leader.</li>
 * </ul>
 * A violation is an {@link InvariantViolation}; the simulation adds the seed, step and event.
 */
final class SimulationInvariants {

    /** An acks=all batch the producer got an acknowledgement for. */
    record Acked(TopicPartition tp, long baseOffset, long lastOffset, List<String> values) {
    }

    static final class InvariantViolation extends RuntimeException {
        InvariantViolation(String message) {
            super(message);
        }
    }

    private record EpochKey(TopicPartition tp, int epoch) {
    }

    /** One run of one broker. */
    private record Incarnation(int brokerId, int incarnation) {
    }

    /** A leader epoch as one run of one broker leads it. */
    private record LeadershipKey(TopicPartition tp, int epoch, int brokerId, int incarnation) {
    }

    /** Where a leader's high watermark stood when it started its epoch, and the acknowledged end then. */
    private record EpochStart(long highWatermark, long acknowledgedEnd) {
    }

    private final ReplicationSimulation sim;
    private final List<Acked> acked = new ArrayList<>();
    private final Map<EpochKey, Incarnation> leaderOfEpoch = new HashMap<>();
    private final Map<LeadershipKey, Long> highWatermarkOfEpoch = new HashMap<>();
    private final Map<LeadershipKey, EpochStart> epochStarts = new HashMap<>();
    private final Map<TopicPartition, Integer> storedEpoch = new HashMap<>();

    SimulationInvariants(ReplicationSimulation sim) {
        this.sim = sim;
    }

    void acknowledged(Acked batch) {
        acked.add(batch);
    }

    int acknowledgedCount() {
        return acked.size();
    }

    /** A broker just became leader in a new epoch (a clean election): it must hold every acknowledged batch. */
    void becameLeader(SimulatedBroker broker, TopicPartition tp, Partition partition) {
        PartitionLog log = partition.log().orElseThrow();
        checkHoldsAcknowledged(broker.id, tp, log, "became leader in epoch " + partition.leaderEpoch());
        long acknowledgedEnd = acked.stream().filter(a -> a.tp.equals(tp)).mapToLong(a -> a.lastOffset + 1).max()
            .orElse(0);
        epochStarts.put(new LeadershipKey(tp, partition.leaderEpoch(), broker.id, broker.incarnation()),
            new EpochStart(log.highWatermark(), acknowledgedEnd));
    }

    void checkAfterEvent() {
        for (TopicPartition tp : sim.assignments.keySet()) {
            sim.zk.peek(SimulatedController.statePath(tp)).ifPresent(v -> {
                LeaderAndIsr state = (LeaderAndIsr) v.data();
                Integer before = storedEpoch.put(tp, state.leaderEpoch());
                if (before != null && state.leaderEpoch() < before) {
                    fail("the leader epoch stored for " + tp + " went back from " + before + " to " + state.leaderEpoch()
                        + " (state " + state + ", version " + v.version() + ")");
                }
                if (state.isr().isEmpty()) {
                    fail("the ISR stored for " + tp + " is empty (state " + state + ")");
                }
            });
        }
        for (SimulatedBroker broker : sim.brokers()) {
            if (!broker.isRunning()) {
                continue;
            }
            broker.partitions().forEach((tp, partition) -> {
                if (partition.isLeader()) {
                    checkLeader(broker, tp, partition);
                }
            });
        }
    }

    private void checkLeader(SimulatedBroker broker, TopicPartition tp, Partition partition) {
        int brokerId = broker.id;
        EpochKey key = new EpochKey(tp, partition.leaderEpoch());
        LeadershipKey leadership = new LeadershipKey(tp, key.epoch, brokerId, broker.incarnation());
        Incarnation run = new Incarnation(brokerId, broker.incarnation());
        Incarnation leader = leaderOfEpoch.putIfAbsent(key, run);
        if (leader != null && leader.brokerId() != brokerId) {
            fail("brokers " + leader.brokerId() + " and " + brokerId + " both lead " + tp + " in epoch " + key.epoch);
        }
        if (leader != null && !leader.equals(run)) {
            fail("broker " + brokerId + " leads " + tp + " in epoch " + key.epoch + " again after a restart (run "
                + leader.incarnation() + ", then run " + run.incarnation() + ")");
        }
        long hw = partition.log().orElseThrow().highWatermark();
        Long before = highWatermarkOfEpoch.put(leadership, hw);
        if (before != null && hw < before) {
            fail("the high watermark of " + tp + " on leader " + brokerId + " went back from " + before + " to " + hw
                + " in epoch " + key.epoch);
        }
        EpochStart start = epochStarts.get(leadership);
        if (start != null && hw > start.highWatermark && hw < start.acknowledgedEnd) {
            fail("leader " + brokerId + " of " + tp + " in epoch " + key.epoch + " moved its high watermark to " + hw
                + ", below the acknowledged offset " + (start.acknowledgedEnd - 1));
        }
    }

    /** At the end: every partition's leader holds every acknowledged batch. */
    void checkAcknowledgedInLeaders() {
        for (TopicPartition tp : sim.assignments.keySet()) {
            LeaderAndIsr state = (LeaderAndIsr) sim.zk.peek(SimulatedController.statePath(tp)).orElseThrow().data();
            boolean anyAcked = acked.stream().anyMatch(a -> a.tp.equals(tp));
            if (!state.hasLeader() || !sim.broker(state.leader()).isRunning()) {
                if (anyAcked) {
                    fail(tp + " has no running leader after healing (state " + state + ")");
                }
                continue;
            }
            Partition partition = sim.broker(state.leader()).partitions().get(tp);
            checkHoldsAcknowledged(state.leader(), tp, partition.log().orElseThrow(), "is the final leader");
        }
    }

    private void checkHoldsAcknowledged(int brokerId, TopicPartition tp, PartitionLog log, String when) {
        for (Acked a : acked) {
            if (!a.tp.equals(tp)) {
                continue;
            }
            List<String> found = read(log, a.baseOffset, a.lastOffset);
            if (!found.equals(a.values)) {
                fail("broker " + brokerId + " " + when + " of " + tp + " but lost the acknowledged batch at offsets "
                    + a.baseOffset + ".." + a.lastOffset + ": expected " + a.values + ", found " + found + " (log "
                    + log.logStartOffset() + ".." + log.logEndOffset() + ")");
            }
        }
    }

    /** The values of the records at offsets {@code from..to} in the log, as many as it holds. */
    private static List<String> read(PartitionLog log, long from, long to) {
        List<String> values = new ArrayList<>();
        if (from < log.logStartOffset() || from >= log.logEndOffset()) {
            return values;
        }
        // One byte with minOneMessage: the batch holding {@code from}, not the rest of the segment.
        for (Record r : log.read(from, 1, FetchIsolation.LOG_END, true).records().records()) {
            if (r.offset() >= from && r.offset() <= to) {
                values.add(Utils.utf8(r.value()));
            }
        }
        return values;
    }

    private static void fail(String message) {
        throw new InvariantViolation(message);
    }
}
