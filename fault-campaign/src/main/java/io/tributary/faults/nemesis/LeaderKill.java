package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import java.util.Random;

/** SIGKILL of the leader of a partition; the heal restarts it on its data and waits until it has started. */
public final class LeaderKill implements Nemesis {

    private BrokerProcess killed;

    @Override
    public String kind() {
        return "kill-leader";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        int partition = context.randomPartition(random);
        int leader = context.leader(partition);
        killed = context.cluster().broker(leader);
        killed.kill();
        return "SIGKILL broker " + leader + " (leader of " + context.topic() + "-" + partition + ")";
    }

    @Override
    public void heal(NemesisContext context) {
        if (killed != null) {
            killed.restart();
            killed.awaitStarted(context.timeout());
            killed = null;
        }
    }
}
