package io.tributary.faults.nemesis;

import io.tributary.faults.harness.NodeProcess;
import java.util.Random;

/**
 * SIGKILL of one ZooKeeper server, drawn at random (sometimes the leader); the heal restarts it on its data directory
 * and waits until every running server serves as leader or follower again.
 */
public final class ZooKeeperKill implements Nemesis {

    private NodeProcess killed;

    @Override
    public String kind() {
        return "kill-zookeeper";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        int server = NemesisContext.pick(context.zooKeeperIds(), 1, random).get(0);
        String role = context.cluster().zooKeeper().mode(server).orElse("not serving");
        killed = context.cluster().zooKeeper().server(server);
        killed.kill();
        return "SIGKILL ZooKeeper server " + server + " (" + role + ")";
    }

    @Override
    public void heal(NemesisContext context) {
        if (killed != null) {
            killed.restart();
            killed = null;
            context.cluster().zooKeeper().awaitQuorum(context.timeout());
        }
    }
}
