package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * SIGKILL of a majority of the brokers at once (2 of 3, 3 of 5), drawn at random; the heal restarts them all and waits
 * until each has started. While they are down, partitions with fewer than {@code min.insync.replicas} live replicas
 * refuse {@code acks=all} writes: lost availability, expected, not lost data.
 */
public final class BrokersKill implements Nemesis {

    private final List<BrokerProcess> killed = new ArrayList<>();

    @Override
    public String kind() {
        return "kill-brokers";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        List<Integer> ids = context.brokerIds();
        List<Integer> victims = NemesisContext.pick(ids, ids.size() / 2 + 1, random);
        for (int id : victims) {
            BrokerProcess broker = context.cluster().broker(id);
            broker.kill();
            killed.add(broker);
        }
        return "SIGKILL brokers " + victims;
    }

    @Override
    public void heal(NemesisContext context) {
        killed.forEach(BrokerProcess::restart);
        for (BrokerProcess broker : killed) {
            broker.awaitStarted(context.timeout());
        }
        killed.clear();
    }
}
