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
 */
public record LeaderAndIsr(int leader, int leaderEpoch, List<Integer> isr, int controllerEpoch, int zkVersion) {

    /** The leader id of a partition without a leader. */
    public static final int NO_LEADER = -1;

    public LeaderAndIsr {
        isr = List.copyOf(isr);
    }

    public boolean hasLeader() {
        return leader != NO_LEADER;
    }

    /** A new state with another leader and ISR, the next leader epoch, by the given controller. */
    public LeaderAndIsr newLeader(int newLeader, List<Integer> newIsr, int byControllerEpoch) {
        return new LeaderAndIsr(newLeader, leaderEpoch + 1, newIsr, byControllerEpoch, zkVersion);
    }

    /** The same leadership with another ISR (leader epoch unchanged, as Kafka's AlterPartition). */
    public LeaderAndIsr withIsr(List<Integer> newIsr) {
        return new LeaderAndIsr(leader, leaderEpoch, newIsr, controllerEpoch, zkVersion);
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

    static LeaderAndIsr fromJson(String path, byte[] data, int zkVersion) {
        JsonNode node = ZkJson.parse(data, path);
        List<Integer> isr = new ArrayList<>();
        node.path("isr").forEach(b -> isr.add(b.asInt()));
        return new LeaderAndIsr(node.path("leader").asInt(NO_LEADER), node.path("leader_epoch").asInt(0), isr,
            node.path("controller_epoch").asInt(0), zkVersion);
    }
}
