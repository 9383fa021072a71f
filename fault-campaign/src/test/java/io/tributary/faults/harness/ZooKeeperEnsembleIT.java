package io.tributary.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A three-server ensemble in namespaces elects a leader, survives SIGKILL of it, and takes it back. Root only. */
class ZooKeeperEnsembleIT {

    private final CommandRunner runner = CommandRunner.processes();
    private Network network;
    private ZooKeeperEnsemble ensemble;

    @AfterEach
    void cleanUp() {
        if (ensemble != null) {
            ensemble.close();
        }
        if (network != null) {
            network.close();
        }
    }

    @Test
    void ensembleReelectsAfterItsLeaderIsKilledAndTakesItBack() {
        HarnessAssumptions.assumeRootWithIproute2();
        RunId run = RunId.random();
        network = Network.create(runner, run.id(), run.subnet(), 3);
        ensemble = ZooKeeperEnsemble.start(network, network.nodes(), Path.of("target", "zk-it", run.id()),
                System.getProperty("java.class.path"), runner);
        ensemble.awaitQuorum(Duration.ofSeconds(60));
        int leader = ensemble.leader().orElseThrow();

        ensemble.server(leader).kill();
        ensemble.awaitQuorum(Duration.ofSeconds(60));
        assertThat(ensemble.leader()).isPresent().get().isNotEqualTo(leader);

        ensemble.server(leader).restart();
        ensemble.awaitQuorum(Duration.ofSeconds(60));
        assertThat(ensemble.mode(leader)).hasValueSatisfying(m -> assertThat(m).isIn("leader", "follower"));
    }
}
