package io.tributary.faults.nemesis;

import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Cuts the leader of a partition from that partition's followers; everyone still reaches ZooKeeper and the clients
 * reach everyone. The followers stop fetching, the leader shrinks its ISR to itself after
 * {@code replica.lag.time.max.ms} and then refuses {@code acks=all} writes (below {@code min.insync.replicas=2})
 * until the heal.
 */
public final class LeaderFromFollowersPartition extends PartitionNemesis {

    @Override
    public String kind() {
        return "partition-leader-followers";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        int partition = context.randomPartition(random);
        int leader = context.leader(partition);
        List<Integer> followers = context.followers(partition, leader);
        context.cluster().network().partition(Set.of(context.brokerNode(leader)), context.brokerNodes(followers));
        return "cut broker " + leader + " (leader of " + context.topic() + "-" + partition + ") from its followers "
                + followers;
    }
}
