package io.tributary.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.faults.campaign.Campaign;
import io.tributary.faults.campaign.CampaignReport;
import io.tributary.faults.campaign.CampaignResult;
import io.tributary.faults.campaign.CampaignSettings;
import io.tributary.faults.history.CampaignRow;
import io.tributary.faults.history.CampaignTable;
import io.tributary.faults.nemesis.Nemeses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The short campaign of issue 21, in {@code mvn -B verify}: 3 ZooKeeper servers and 3 brokers from the packaged jar,
 * each in its own network namespace, started once; for each seed of {@code campaign.seeds} (default {@code 21}) a
 * {@link Campaign} run on a topic of its own makes every kind of {@link Nemeses} once, in the seed's order, under the
 * queue workload. Every fault kind's window and the whole history must show nothing lost, duplicated or at
 * inconsistent offsets, and the cluster must recover from every fault. {@code campaign.kinds} (comma-separated)
 * narrows the kinds, to replay a failure. Prints the seed and the table, and writes it to
 * {@code target/short-campaign-report.md}. Needs root, iproute2 and broker-service packaged.
 */
class ShortCampaignIT {

    static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private FaultCluster cluster;

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyFaultKindLosesNoAcknowledgedWrite() throws Exception {
        HarnessAssumptions.assumeRootWithIproute2();
        List<Long> seeds = Arrays.stream(System.getProperty("campaign.seeds", "21").split(","))
                .map(String::strip).map(Long::parseLong).toList();
        List<String> kinds = System.getProperty("campaign.kinds", "").isBlank() ? Nemeses.kinds()
                : Arrays.stream(System.getProperty("campaign.kinds").split(",")).map(String::strip).toList();
        RunId run = RunId.random();
        System.out.println("campaign seeds " + seeds + ", run " + run);
        long startNanos = System.nanoTime();
        cluster = startCluster(run, 3);
        System.out.printf("cluster up in %.1f s%n", (System.nanoTime() - startNanos) / 1e9);

        List<CampaignResult> results = new ArrayList<>();
        try (ClusterProbe probe = new ClusterProbe(cluster.bootstrapServers())) {
            Campaign campaign = new Campaign(cluster, probe, System.out);
            for (long seed : seeds) {
                results.add(campaign.run(CampaignSettings.shortRun(seed, kinds), "queue-" + seed));
            }
        }
        List<CampaignRow> rows = CampaignReport.rows(results);
        System.out.print(CampaignTable.render(rows));
        Files.writeString(Path.of("target", "short-campaign-report.md"), CampaignReport.markdown(
                "Short fault campaign", "3 ZooKeeper servers, 3 brokers, seeds " + seeds, results));
        System.out.printf("campaign took %.1f s%n", (System.nanoTime() - startNanos) / 1e9);

        for (CampaignResult result : results) {
            assertThat(result.failure()).as("seed %d: every fault healed and recovered", result.seed()).isEmpty();
            assertThat(result.whole().acknowledged()).as("seed %d: acknowledged writes", result.seed()).isPositive();
            assertThat(result.whole().valid()).as("seed %d: anomalies %s", result.seed(), result.whole().examples())
                    .isTrue();
        }
        assertThat(rows).extracting(CampaignRow::fault).containsAll(kinds);
        for (CampaignRow row : rows) {
            assertThat(row.lost()).as("%s lost", row.fault()).isZero();
            assertThat(row.duplicated()).as("%s duplicated", row.fault()).isZero();
            assertThat(row.inconsistent()).as("%s inconsistent", row.fault()).isZero();
        }
    }

    /** 3 ZooKeeper servers and {@code brokers} brokers from broker-service's packaged jar, logs under target. */
    static FaultCluster startCluster(RunId run, int brokers) {
        Path brokerJar = Path.of(System.getProperty("broker.jar",
                "../broker-service/target/broker-service-" + System.getProperty("project.version", "0.1.0-SNAPSHOT")
                        + ".jar"));
        return FaultCluster.start(run, 3, brokers, brokerJar, System.getProperty("java.class.path"),
                Path.of("target", "campaign", run.id()), START_TIMEOUT);
    }
}
