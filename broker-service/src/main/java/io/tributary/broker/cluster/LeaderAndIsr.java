package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A partition's leadership, the node {@code /brokers/topics/{t}/partitions/{p}/state}, in
 * Kafka's JSON:
 * <pre>
 * {"controller_epoch":3,"leader":1,"version":1,"leader_epoch":7,"isr":[1,2]}
 * </pre>
 * Written by the controller (leader elections, guarded by the controller epoch) and by the
 * leader itself (ISR changes, guarded by {@code zkVersion}).
 *
 * @param leader          leader broker id, or -1 when the partition has none (offline)
 * @param leaderEpoch     incremented on every leader change
 * @param isr             in-sync replicas
 * @param controllerEpoch epoch of the controller that last elected the leader
 * @param zkVersion       version of the node, for conditional updates (-1 when not read from ZooKeeper)
 * @param mzxid           the ZooKeeper transaction id that last wrote the node ({@code Stat.mzxid}), or
 *                        {@link #UNKNOWN_ZXID} when not read from ZooKeeper. Compared with a broker's
 *                        epoch (the czxid of its registration), it tells whether the state was
 *                        written before that broker last registered, that is, for an earlier run
 *                        of it ({@link #writtenBefore}).
 */
public record LeaderAndIsr(int leader, int leaderEpoch, List<Integer> isr, int controllerEpoch, int zkVersion,
                           long mzxid) {

    /** The leader id of a partition without a leader. */
    public static final int NO_LEADER = -1;

    /** The {@code mzxid} of a state not read from ZooKeeper. */
    public static final long UNKNOWN_ZXID = -1;

    public LeaderAndIsr {
        isr = List.copyOf(isr);
    }

    /** A state not read from ZooKeeper (its mzxid unknown). */
    public LeaderAndIsr(int leader, int leaderEpoch, List<Integer> isr, int controllerEpoch, int zkVersion) {
        this(leader, leaderEpoch, isr, controllerEpoch, zkVersion, UNKNOWN_ZXID);
    }

    /**
     * Whether this state was written before the registration whose czxid is {@code brokerEpoch}:
     * a broker that registered since then has restarted (or lost its session) after the state
     * named it, so the state describes an earlier run of it. False when either is unknown.
     */
    public boolean writtenBefore(long brokerEpoch) {
        return mzxid != UNKNOWN_ZXID && brokerEpoch >= 0 && mzxid < brokerEpoch;
    }

    /** The same leader epoch and ISR without a leader: how a broker holds a state it must not lead. */
    public LeaderAndIsr withoutLeader() {
        return new LeaderAndIsr(NO_LEADER, leaderEpoch, isr, controllerEpoch, zkVersion, mzxid);
    }

    public boolean hasLeader() {
        return leader != NO_LEADER;
    }

    /** A new state with another leader and ISR, the next leader epoch, by the given controller. */
    public LeaderAndIsr newLeader(int newLeader, List<Integer> newIsr, int byControllerEpoch) {
        return new LeaderAndIsr(newLeader, leaderEpoch + 1, newIsr, byControllerEpoch, zkVersion, mzxid);
    }

    /** The same leadership with another ISR (leader epoch unchanged, as Kafka's AlterPartition). */
    public LeaderAndIsr withIsr(List<Integer> newIsr) {
        return new LeaderAndIsr(leader, leaderEpoch, newIsr, controllerEpoch, zkVersion, mzxid);
    }

    byte[] toJson() {
        ObjectNode node = ZkJson.object();
        node.put("controller_epoch", controllerEpoch);
        node.put("leader", leader);
        node.put("version", 1);
        node.put("leader_epoch", leaderEpoch);
        var array = node.putArray("isr");
        isr.forEach(array::add);
        return ZkJson.bytes(node);
    }

    static LeaderAndIsr fromJson(String path, byte[] data, int zkVersion, long mzxid) {
        JsonNode node = ZkJson.parse(data, path);
        List<Integer> isr = new ArrayList<>();
        node.path("isr").forEach(b -> isr.add(b.asInt()));
        return new LeaderAndIsr(node.path("leader").asInt(NO_LEADER), node.path("leader_epoch").asInt(0), isr,
            node.path("controller_epoch").asInt(0), zkVersion, mzxid);
    }
}
