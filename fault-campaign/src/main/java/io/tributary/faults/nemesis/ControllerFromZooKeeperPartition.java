package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import java.time.Duration;
import java.util.Random;
import java.util.Set;

/**
 * Cuts the controller (Metadata's controller id) from every ZooKeeper server; brokers and clients still reach it. Its
 * session expires, another broker becomes controller, and the old one must stop acting as controller.
 */
public final class ControllerFromZooKeeperPartition extends PartitionNemesis {

    /** Two seconds past the session timeout, so the session expires and ZooKeeper's side acts on it. */
    @Override
    public Duration minimumHold() {
        return BrokerProcess.SESSION_TIMEOUT.plusSeconds(2);
    }

    @Override
    public String kind() {
        return "partition-controller-zookeeper";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        int controller = context.controller();
        context.cluster().network().partition(Set.of(context.brokerNode(controller)),
                context.zooKeeperNodes(context.zooKeeperIds()));
        return "cut broker " + controller + " (controller) from ZooKeeper";
    }
}
