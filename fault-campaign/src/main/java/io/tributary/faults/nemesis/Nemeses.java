package io.tributary.faults.nemesis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every kind of {@link Nemesis} by its {@link Nemesis#kind()}, in a fixed order: partitions, pauses, kills, disks, then
 * restarts and kills that race an administrative operation.
 */
public final class Nemeses {

    private static final Map<String, Supplier<Nemesis>> ALL = new LinkedHashMap<>();

    static {
        List<Supplier<Nemesis>> suppliers = List.of(LeaderFromFollowersPartition::new,
                LeaderFromZooKeeperPartition::new, ControllerFromZooKeeperPartition::new,
                ZooKeeperMinorityPartition::new, ZooKeeperLeaderPartition::new, BridgePartition::new,
                LeaderPause::new, ControllerPause::new, ZooKeeperPause::new,
                LeaderKill::new, BrokersKill::new, ZooKeeperKill::new, FullDisk::new,
                RollingRestart::new, ReassignmentKill::new, PreferredElectionKill::new);
        for (Supplier<Nemesis> supplier : suppliers) {
            ALL.put(supplier.get().kind(), supplier);
        }
    }

    private Nemeses() {
    }

    /** The kinds of every nemesis, in the fixed order. */
    public static List<String> kinds() {
        return List.copyOf(ALL.keySet());
    }

    /**
     * A new nemesis of {@code kind}.
     *
     * @throws IllegalArgumentException for an unknown kind, naming the known ones
     */
    public static Nemesis create(String kind) {
        Supplier<Nemesis> supplier = ALL.get(kind);
        if (supplier == null) {
            throw new IllegalArgumentException("no nemesis of kind '" + kind + "'; known: " + ALL.keySet());
        }
        return supplier.get();
    }
}
