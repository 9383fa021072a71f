package io.tributary.faults.nemesis;

/**
 * A network partition: {@link #start} cuts groups of nodes from each other with {@code prohibit} routes
 * ({@link io.tributary.faults.harness.Network#partition}), {@link #heal} removes every route. The host namespace, where
 * the workload's clients run, is never cut. Not thread-safe.
 */
public abstract class PartitionNemesis implements Nemesis {

    @Override
    public void heal(NemesisContext context) {
        context.cluster().network().heal();
    }
}
