package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * The seeded simulation of a classic group ({@link GroupSimulation}) over many seeds, and its
 * determinism.
 *
 * <p>The normal test run runs {@value #CI_SEEDS} seeds. More, or one seed again with its trace:
 * <pre>
 * mvn -B -o test -pl broker-service -Dtest=GroupSimulationTest -Dgroup.simulation.seeds=10000
 * mvn -B -o test -pl broker-service -Dtest='GroupSimulationTest#replaysSeed' -Dgroup.simulation.seed=1234 \
 *     -Dgroup.simulation.trace=true
 * </pre>
 * A failure names its seed, step and event, and the last events before it;
 * {@code -Dgroup.simulation.keepGoing=true} runs every seed and lists the failing ones.
 */
class GroupSimulationTest {

    static final long CI_SEEDS = 500;

    private static Level savedLevel;

    @BeforeAll
    static void quietLogs() {
        Logger logger = (Logger) LoggerFactory.getLogger("io.tributary");
        savedLevel = logger.getLevel();
        logger.setLevel(Level.ERROR);
    }

    @AfterAll
    static void restoreLogs() {
        ((Logger) LoggerFactory.getLogger("io.tributary")).setLevel(savedLevel);
    }

    static LongStream replaySeeds() {
        return LongStream.of(Long.getLong("group.simulation.seed", 1L));
    }

    private static GroupSimulation.Result run(long seed) {
        return new GroupSimulation(seed, GroupSimulation.Settings.standard()).run();
    }

    @Test
    void everySeedKeepsTheGroupInvariants() {
        long seeds = Long.getLong("group.simulation.seeds", CI_SEEDS);
        long first = Long.getLong("group.simulation.first", 0L);
        long steps = 0;
        long generations = 0;
        long slowestSettleMs = 0;
        long startNs = System.nanoTime();
        List<String> failures = new ArrayList<>();
        for (long seed = first; seed < first + seeds; seed++) {
            GroupSimulation.Result result;
            try {
                result = run(seed);
            } catch (GroupSimulation.SimulationFailure failure) {
                if (!Boolean.getBoolean("group.simulation.keepGoing")) {
                    throw failure;
                }
                failures.add("seed " + seed + ": " + failure.getCause().getMessage());
                continue;
            }
            steps += result.steps();
            generations += result.generation();
            slowestSettleMs = Math.max(slowestSettleMs, result.settledAfterMs());
            if (Boolean.getBoolean("group.simulation.verbose")) {
                System.out.printf("seed %d: %d steps, generation %d, settled after %d ms%n", seed, result.steps(),
                    result.generation(), result.settledAfterMs());
            }
        }
        System.out.printf("group simulation: %d seeds, %d steps, %d generations, slowest settle %d ms, in %d ms%n",
            seeds, steps, generations, slowestSettleMs, (System.nanoTime() - startNs) / 1_000_000);
        failures.forEach(System.out::println);
        assertThat(failures).as("failing seeds").isEmpty();
        assertThat(generations).isPositive();
    }

    /** Replays {@code -Dgroup.simulation.seed} (1 by default); {@code -Dgroup.simulation.trace=true} prints every event. */
    @ParameterizedTest
    @MethodSource("replaySeeds")
    void replaysSeed(long seed) {
        GroupSimulation simulation = new GroupSimulation(seed, GroupSimulation.Settings.standard());
        GroupSimulation.Result result;
        try {
            result = simulation.run();
        } finally {
            simulation.fullTrace().forEach(System.out::println);
        }
        System.out.printf("seed %d: %d steps, generation %d, settled after %d ms, trace %s%n", seed, result.steps(),
            result.generation(), result.settledAfterMs(), result.traceDigest());
    }

    /**
     * Seed 87: an admin removed static member s2#2 by its instance id while its SyncGroup waited for
     * the leader's assignment; the SyncGroup was never answered (the consumer would have waited for
     * its request timeout). Now a removed member's waiting SyncGroup gets UNKNOWN_MEMBER_ID, as its
     * JoinGroup does.
     */
    @Test
    void seed87AStaticMemberRemovedByAnAdminGetsItsSyncGroupAnswered() {
        assertThat(run(87).settledAfterMs()).isNotNegative();
    }

    /**
     * Seeds 2 and 64: static members crashed during a rebalance; the join phase kept them (KIP-345)
     * in a generation they never sent SyncGroup for, and once the leader's assignment made the group
     * Stable the sync timeout was cancelled, so they kept their partitions until their sessions
     * expired (seed 64: the group was not Stable with the running consumers 62 s into the quiet
     * phase). Now members that sent no SyncGroup within the rebalance timeout are removed also in
     * Stable, as Kafka's expirePendingSync does.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {2, 64})
    void membersThatNeverSyncAreRemovedAfterTheRebalanceTimeoutAlsoOnceStable(long seed) {
        assertThat(run(seed).settledAfterMs()).isNotNegative();
    }

    @Test
    void aSeedRunsTheSameEventsEveryTime() {
        for (long seed : new long[] {7, 8}) {
            assertThat(run(seed)).isEqualTo(run(seed));
        }
    }
}
