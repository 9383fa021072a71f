package io.tributary.faults.nemesis;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Jepsen's bridge: the brokers split into two halves that cannot reach each other, except one broker (the bridge)
 * that both halves still reach. Not transitive: a talks to the bridge and the bridge to b, but a not to b
 * ({@link io.tributary.faults.harness.Network#partition} leaves nodes in neither group untouched). ZooKeeper servers
 * and clients reach every broker.
 */
public final class BridgePartition extends PartitionNemesis {

    @Override
    public String kind() {
        return "partition-bridge";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        List<Integer> brokers = NemesisContext.pick(context.brokerIds(), context.brokerIds().size(), random);
        int bridge = brokers.get(0);
        List<Integer> rest = new ArrayList<>(brokers.subList(1, brokers.size()));
        List<Integer> a = List.copyOf(rest.subList(0, rest.size() / 2));
        List<Integer> b = List.copyOf(rest.subList(rest.size() / 2, rest.size()));
        context.cluster().network().partition(context.brokerNodes(a), context.brokerNodes(b));
        return "cut brokers " + a + " from " + b + ", both still reach broker " + bridge;
    }
}
