package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import io.tributary.faults.harness.NodeProcess;
import java.time.Duration;
import java.util.Random;

/**
 * A process pause: SIGSTOP of one process at {@link #start}, SIGCONT at {@link #heal}. Held at least one second longer
 * than the brokers' ZooKeeper session timeout ({@link BrokerProcess#SESSION_TIMEOUT}), so a paused broker's session
 * expires and it wakes up to a cluster that went on without it. Not thread-safe.
 */
public abstract class PauseNemesis implements Nemesis {

    private NodeProcess paused;

    /** The process to pause and a sentence naming it. */
    protected abstract Target target(NemesisContext context, Random random);

    /** A process chosen as a target and how the log names it. */
    protected record Target(NodeProcess process, String description) {
    }

    @Override
    public Duration minimumHold() {
        return BrokerProcess.SESSION_TIMEOUT.plusSeconds(1);
    }

    @Override
    public String start(NemesisContext context, Random random) {
        Target target = target(context, random);
        target.process().pause();
        paused = target.process();
        return "SIGSTOP " + target.description();
    }

    @Override
    public void heal(NemesisContext context) {
        if (paused != null) {
            paused.resume();
            paused = null;
        }
    }
}
