package io.tributary.faults.nemesis;

import java.util.Random;

/**
 * Pauses one ZooKeeper server, drawn at random (sometimes the leader), longer than the brokers' session timeout: its
 * clients must move to another server in time, and a paused leader is replaced.
 */
public final class ZooKeeperPause extends PauseNemesis {

    @Override
    public String kind() {
        return "pause-zookeeper";
    }

    @Override
    protected Target target(NemesisContext context, Random random) {
        int server = NemesisContext.pick(context.zooKeeperIds(), 1, random).get(0);
        String role = context.cluster().zooKeeper().mode(server).orElse("not serving");
        return new Target(context.cluster().zooKeeper().server(server), "ZooKeeper server " + server + " (" + role
                + ")");
    }
}
