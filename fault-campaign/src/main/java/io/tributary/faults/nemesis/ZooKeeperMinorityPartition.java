package io.tributary.faults.nemesis;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Cuts a minority of the ZooKeeper ensemble (one server of three, two of five), chosen among the followers, from the
 * other servers; brokers still reach every server. The minority stops serving, so brokers connected to it must move
 * their sessions to the majority before they expire.
 */
public final class ZooKeeperMinorityPartition extends PartitionNemesis {

    @Override
    public String kind() {
        return "partition-zookeeper-minority";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        List<Integer> servers = context.zooKeeperIds();
        List<Integer> followers = new ArrayList<>(servers);
        followers.remove(Integer.valueOf(context.zooKeeperLeader()));
        List<Integer> minority = NemesisContext.pick(followers, (servers.size() - 1) / 2, random);
        List<Integer> majority = new ArrayList<>(servers);
        majority.removeAll(minority);
        context.cluster().network().partition(context.zooKeeperNodes(minority), context.zooKeeperNodes(majority));
        return "cut ZooKeeper servers " + minority + " from " + majority;
    }
}
