package io.tributary.faults.nemesis;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Cuts the ZooKeeper leader (the server whose {@code srvr} answers {@code Mode: leader}) from the other servers;
 * brokers still reach it. The rest elect a new leader; sessions held through the old one must survive the move.
 */
public final class ZooKeeperLeaderPartition extends PartitionNemesis {

    @Override
    public String kind() {
        return "partition-zookeeper-leader";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        int leader = context.zooKeeperLeader();
        List<Integer> others = new ArrayList<>(context.zooKeeperIds());
        others.remove(Integer.valueOf(leader));
        context.cluster().network().partition(context.zooKeeperNodes(List.of(leader)),
                context.zooKeeperNodes(others));
        return "cut ZooKeeper leader " + leader + " from servers " + others;
    }
}
