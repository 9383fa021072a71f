package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import java.time.Duration;
import java.util.Random;
import java.util.Set;

/**
 * The classic split brain: cuts the leader of a partition from every ZooKeeper server, not from its followers nor from
 * the clients. Its session expires, the controller elects another leader, and for a while the old leader still takes
 * produce requests; {@code acks=all} with {@code min.insync.replicas=2} must keep it from acknowledging what the new
 * leader will not have.
 */
public final class LeaderFromZooKeeperPartition extends PartitionNemesis {

    /** Two seconds past the session timeout, so the session expires and ZooKeeper's side acts on it. */
    @Override
    public Duration minimumHold() {
        return BrokerProcess.SESSION_TIMEOUT.plusSeconds(2);
    }

    @Override
    public String kind() {
        return "partition-leader-zookeeper";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        int partition = context.randomPartition(random);
        int leader = context.leader(partition);
        context.cluster().network().partition(Set.of(context.brokerNode(leader)),
                context.zooKeeperNodes(context.zooKeeperIds()));
        return "cut broker " + leader + " (leader of " + context.topic() + "-" + partition + ") from ZooKeeper";
    }
}
