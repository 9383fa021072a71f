package io.tributary.faults.nemesis;

import java.util.Random;

/** Pauses the leader of a partition longer than its ZooKeeper session: it loses leadership while it sleeps. */
public final class LeaderPause extends PauseNemesis {

    @Override
    public String kind() {
        return "pause-leader";
    }

    @Override
    protected Target target(NemesisContext context, Random random) {
        int partition = context.randomPartition(random);
        int leader = context.leader(partition);
        return new Target(context.cluster().broker(leader).process(),
                "broker " + leader + " (leader of " + context.topic() + "-" + partition + ")");
    }
}
