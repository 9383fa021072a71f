package io.tributary.broker.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.LongStream;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * The seeded replication simulation ({@link ReplicationSimulation}) over many seeds, its
 * determinism, and a planted bug it must catch.
 *
 * <p>The normal test run runs {@value #CI_SEEDS} seeds. More, or one seed again:
 * <pre>
 * cd broker-service
 * mvn -B -o test-compile surefire:test -Dtest='io.tributary.broker.simulation.*Test' -Dsimulation.seeds=10000
 * mvn -B -o test-compile surefire:test -Dtest='ReplicationSimulationTest#replaysSeed' -Dsimulation.seed=1234 \
 *     -Dsimulation.trace=true
 * </pre>
 * A failure names its seed, step and event, and the last events before it.
 */
class ReplicationSimulationTest {

    static final long CI_SEEDS = 100;

    private static Level savedLevel;

    @TempDir
    Path dir;

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

    static long seeds() {
        return Long.getLong("simulation.seeds", CI_SEEDS);
    }

    static LongStream replaySeeds() {
        return LongStream.of(Long.getLong("simulation.seed", 1L));
    }

    private ReplicationSimulation.Result run(long seed, ReplicationSimulation.Settings settings, String name) {
        File seedDir = new File(dir.toFile(), name + "-" + seed);
        try {
            return new ReplicationSimulation(seed, settings, seedDir).run();
        } finally {
            try {
                Utils.delete(seedDir);
            } catch (IOException e) {
                // left to @TempDir
            }
        }
    }

    @Test
    void everySeedKeepsTheReplicationInvariants() {
        long steps = 0;
        long acknowledged = 0;
        long startNs = System.nanoTime();
        for (long seed = 0; seed < seeds(); seed++) {
            ReplicationSimulation.Result result = run(seed, ReplicationSimulation.Settings.standard(), "seed");
            steps += result.steps();
            acknowledged += result.acknowledged();
            if (Boolean.getBoolean("simulation.verbose")) {
                System.out.printf("seed %d: %d steps, %d acknowledged, %d ms so far%n", seed, result.steps(),
                    result.acknowledged(), (System.nanoTime() - startNs) / 1_000_000);
            }
        }
        System.out.printf("replication simulation: %d seeds, %d steps, %d acknowledged batches in %d ms%n", seeds(),
            steps, acknowledged, (System.nanoTime() - startNs) / 1_000_000);
        assertThat(acknowledged).isPositive();
    }

    /** Replays {@code -Dsimulation.seed} (1 by default); {@code -Dsimulation.trace=true} prints every event. */
    @ParameterizedTest
    @MethodSource("replaySeeds")
    void replaysSeed(long seed) {
        File seedDir = new File(dir.toFile(), "replay-" + seed);
        ReplicationSimulation simulation = new ReplicationSimulation(seed, ReplicationSimulation.Settings.standard(),
            seedDir);
        ReplicationSimulation.Result result;
        try {
            result = simulation.run();
        } finally {
            simulation.fullTrace().forEach(System.out::println);
        }
        System.out.printf("seed %d: %d steps, %d acknowledged batches, trace %s%n", seed, result.steps(),
            result.acknowledged(), result.traceDigest());
    }

    /**
     * Seed 104, found by the simulation: broker 0, leader of events-0 in epoch 2, crashed and
     * registered again before the controller handled the loss of its registration, and led epoch
     * 2 again from the high watermark it recovered (one epoch, two runs of a broker). Now the
     * restarted broker does not lead a state written before its registration, and the controller
     * elects again in a new epoch.
     */
    @Test
    void seed104ARestartedLeaderLeadsOnlyInANewEpoch() {
        ReplicationSimulation.Result result = run(104, ReplicationSimulation.Settings.standard(), "seed104");
        assertThat(result.acknowledged()).isPositive();
    }

    @Test
    void aSeedRunsTheSameEventsEveryTime() {
        for (long seed : new long[] {7, 8}) {
            ReplicationSimulation.Result first = run(seed, ReplicationSimulation.Settings.standard(), "first");
            ReplicationSimulation.Result second = run(seed, ReplicationSimulation.Settings.standard(), "second");
            assertThat(second).isEqualTo(first);
        }
    }

    @Test
    void anIsrWriteWithoutItsVersionCheckIsCaught() {
        ReplicationSimulation.Settings planted = new ReplicationSimulation.Settings(
            ReplicationSimulation.Settings.standard().faultPhaseMs(), ReplicationSimulation.Settings.standard().healPhaseMs(),
            true);
        for (long seed = 0; seed < CI_SEEDS; seed++) {
            try {
                run(seed, planted, "planted");
            } catch (ReplicationSimulation.SimulationFailure failure) {
                assertThat(failure.invariantViolation).as(failure.getMessage()).isTrue();
                System.out.printf("planted bug caught after %d seed(s): %s%n", seed + 1, failure.getMessage());
                return;
            }
        }
        fail("no seed of " + CI_SEEDS + " caught the ISR write without a version check");
    }
}
