package io.tributary.faults.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CampaignTableTest {

    @Test
    void rendersOneAlignedRowPerFault() {
        String table = CampaignTable.render(List.of(
                new CampaignRow("kill-leader", 10, 51234, 0, 0, 0, 7_349_000_000L),
                new CampaignRow("partition", 3, 900, 2, 1, 12, 30_000_000_000L)));

        assertThat(table).isEqualTo("""
                fault        runs  acknowledged  lost  duplicated  inconsistent  unavailable s
                kill-leader    10         51234     0           0             0            7.3
                partition       3           900     2           1            12           30.0
                """);
    }

    @Test
    void aRowSumsItsRunsAndKeepsTheWorstUnavailability() {
        var first = new CheckResult(100, Map.of(AnomalyKind.LOST, 2, AnomalyKind.DUPLICATE, 1), Map.of(), 5_000);
        var second = new CheckResult(50, Map.of(AnomalyKind.LOST, 1, AnomalyKind.INCONSISTENT_OFFSET, 4), Map.of(),
                9_000);

        assertThat(CampaignRow.of("pause", List.of(first, second)))
                .isEqualTo(new CampaignRow("pause", 2, 150, 3, 1, 4, 9_000));
    }

    @Test
    void aCampaignWithoutRunsRendersTheHeaderOnly() {
        assertThat(CampaignTable.render(List.of()))
                .isEqualTo("fault  runs  acknowledged  lost  duplicated  inconsistent  unavailable s\n");
    }
}
