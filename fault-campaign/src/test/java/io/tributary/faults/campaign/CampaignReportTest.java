package io.tributary.faults.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.faults.history.Anomaly;
import io.tributary.faults.history.AnomalyKind;
import io.tributary.faults.history.CampaignRow;
import io.tributary.faults.history.CheckResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CampaignReportTest {

    private static final long SECOND = 1_000_000_000L;

    private static CampaignResult run(long seed, String kind, CheckResult window, CheckResult whole) {
        FaultRecord fault = new FaultRecord(kind, "SIGKILL broker 2", 0, 4 * SECOND, 9 * SECOND, Optional.empty());
        return new CampaignResult(seed, "queue-" + seed, List.of(fault), whole, Map.of(kind, List.of(window)), 100, 50,
                30.0, Optional.empty());
    }

    @Test
    void rowsSumEachKindOverRunsAndEndWithTheWholeHistories() {
        CheckResult clean = CheckResult.of(40, List.of(), 2 * SECOND);
        CheckResult lost = CheckResult.of(60, List.of(new Anomaly(AnomalyKind.LOST, "v7")), 5 * SECOND);
        List<CampaignResult> results = List.of(run(1, "kill-leader", clean, clean), run(2, "kill-leader", lost, lost));

        assertThat(CampaignReport.rows(results)).containsExactly(
                new CampaignRow("kill-leader", 2, 100, 1, 0, 0, 5 * SECOND),
                new CampaignRow(CampaignResult.WHOLE, 2, 100, 1, 0, 0, 5 * SECOND));
    }

    @Test
    void markdownNamesEverySeedItsVerdictAndEachFaultsTarget() {
        CheckResult clean = CheckResult.of(40, List.of(), 2 * SECOND);
        CheckResult lost = CheckResult.of(60, List.of(new Anomaly(AnomalyKind.LOST, "v7 lost")), 5 * SECOND);

        String md = CampaignReport.markdown("Report", "3 brokers",
                List.of(run(11, "pause-leader", clean, clean), run(12, "pause-leader", lost, lost)));

        assertThat(md).startsWith("# Report\n\n3 brokers\n")
                .contains("| 11 | queue-11 | 1 | 100 | 30.0 | passed |")
                .contains("| 12 | queue-12 | 1 | 100 | 30.0 | FAILED: LOST: v7 lost |")
                .contains("| 11 | pause-leader | SIGKILL broker 2 | 4.0 | 5.0 |")
                .contains("pause-leader      2");
    }
}
