package io.tributary.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tributary.faults.campaign.Campaign;
import io.tributary.faults.campaign.CampaignReport;
import io.tributary.faults.campaign.CampaignResult;
import io.tributary.faults.campaign.CampaignSettings;
import io.tributary.faults.history.CampaignTable;
import io.tributary.faults.nemesis.Nemeses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The long campaign, run only on request ({@code -Dcampaign.minutes=N}; skipped otherwise): 3 ZooKeeper servers and
 * {@code campaign.brokers} brokers (3 or 5, default 5) started once, then campaign runs one after another until the
 * minutes are up, each on a topic of its own with {@code campaign.faults} faults (default 12) drawn with replacement
 * from every kind, seeded {@code campaign.seed} (default: the time), {@code campaign.seed + 1}, ... Writes the report
 * (table, seeds, every fault with its target and recovery time) to {@code target/campaign-report.md} after each run,
 * and fails if any run lost, duplicated or misplaced a record or did not recover from a fault.
 *
 * <pre>
 * mvn -B -q package -pl broker-service -am -DskipTests
 * mvn -B verify -pl fault-campaign -Dit.test=LongCampaignIT -Dcampaign.minutes=60 -Dcampaign.brokers=5
 * </pre>
 */
class LongCampaignIT {

    private FaultCluster cluster;

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void mixedFaultsLoseNoAcknowledgedWrite() throws Exception {
        String minutesProperty = System.getProperty("campaign.minutes");
        assumeTrue(minutesProperty != null, "the long campaign runs with -Dcampaign.minutes=N");
        HarnessAssumptions.assumeRootWithIproute2();
        double minutes = Double.parseDouble(minutesProperty);
        int brokers = Integer.getInteger("campaign.brokers", 5);
        int faultsPerRun = Integer.getInteger("campaign.faults", 12);
        long firstSeed = Long.getLong("campaign.seed", System.currentTimeMillis());
        RunId run = RunId.random();
        String setup = String.format("%.0f minutes requested, 3 ZooKeeper servers, %d brokers, %d faults per run, "
                + "first seed %d (replay a run: -Dcampaign.seed=<its seed> -Dcampaign.minutes=0.1)", minutes, brokers,
                faultsPerRun, firstSeed);
        System.out.println("long campaign: " + setup + ", run " + run);
        long deadline = System.nanoTime() + (long) (minutes * 60e9);
        cluster = ShortCampaignIT.startCluster(run, brokers);
        Path report = Path.of("target", "campaign-report.md");
        List<CampaignResult> results = new ArrayList<>();
        try (ClusterProbe probe = new ClusterProbe(cluster.bootstrapServers())) {
            Campaign campaign = new Campaign(cluster, probe, System.out);
            for (long seed = firstSeed; results.isEmpty() || System.nanoTime() < deadline; seed++) {
                List<String> kinds = new ArrayList<>();
                Random draw = new Random(seed);
                for (int i = 0; i < faultsPerRun; i++) {
                    kinds.add(Nemeses.kinds().get(draw.nextInt(Nemeses.kinds().size())));
                }
                var settings = CampaignSettings.shortRun(seed, kinds);
                CampaignResult result;
                try {
                    result = campaign.run(new CampaignSettings(seed, kinds, brokers, settings.warmUp(),
                            settings.holdMin(), settings.holdMax(), settings.quietMin(), settings.quietMax(),
                            settings.recoveryTimeout()), "queue-" + seed);
                } catch (RuntimeException e) {
                    Files.writeString(report, CampaignReport.markdown("Fault campaign report", setup, results)
                            + "\n## Aborted\n\nSeed " + seed + " (faults " + kinds + ") could not finish: " + e
                            + "\n");
                    throw e;
                }
                results.add(result);
                Files.writeString(report, CampaignReport.markdown("Fault campaign report", setup, results));
                if (result.failure().isPresent()) {
                    break;
                }
                // Checked: its records would otherwise fill broker 1's small log directory within the hour (seed
                // 4007: the directory went offline with no full-disk fault, and the rolling restart never saw its
                // replicas back in the ISR).
                probe.deleteTopic("queue-" + seed, settings.recoveryTimeout());
            }
        }
        System.out.print(CampaignTable.render(CampaignReport.rows(results)));
        System.out.println("report: " + report.toAbsolutePath());
        for (CampaignResult result : results) {
            assertThat(result.passed()).as("seed %d: %s %s", result.seed(), result.failure(),
                    result.whole().examples()).isTrue();
        }
    }
}
