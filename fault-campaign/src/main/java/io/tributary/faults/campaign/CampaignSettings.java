package io.tributary.faults.campaign;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One campaign run's parameters. The {@code seed} fixes the order of the faults (a shuffle of {@code kinds}; a kind
 * listed twice is made twice), each nemesis's choice of target, each hold in {@code [holdMin, holdMax]} (raised to
 * the nemesis's own minimum) and each quiet period in {@code [quietMin, quietMax]}; it does not fix which broker leads
 * what, which the cluster decides. {@code recoveryTimeout} bounds the wait, after each heal, for the ZooKeeper quorum
 * and the topic's full ISR; a cluster that does not recover within it fails the run. Immutable.
 */
public record CampaignSettings(
        long seed,
        List<String> kinds,
        int partitions,
        Duration warmUp,
        Duration holdMin,
        Duration holdMax,
        Duration quietMin,
        Duration quietMax,
        Duration recoveryTimeout) {

    public CampaignSettings {
        kinds = List.copyOf(kinds);
        Objects.requireNonNull(warmUp, "warmUp");
        Objects.requireNonNull(recoveryTimeout, "recoveryTimeout");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions " + partitions + " < 1");
        }
        if (holdMax.compareTo(holdMin) < 0 || quietMax.compareTo(quietMin) < 0) {
            throw new IllegalArgumentException("hold " + holdMin + ".." + holdMax + " or quiet " + quietMin + ".."
                    + quietMax + " is not a range");
        }
    }

    /**
     * The short campaign's timings for {@code kinds}: 2 partitions, 2 s warm-up, holds of 3 to 4 s, at least the
     * brokers' 3 s session timeout (pauses at least the session timeout plus a second), quiet periods of 0.5 to 1 s,
     * 120 s to recover.
     */
    public static CampaignSettings shortRun(long seed, List<String> kinds) {
        return new CampaignSettings(seed, kinds, 2, Duration.ofSeconds(2), Duration.ofSeconds(3),
                Duration.ofSeconds(4), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(120));
    }
}
