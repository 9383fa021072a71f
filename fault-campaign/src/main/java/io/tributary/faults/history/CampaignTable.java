package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders the campaign's summary as a plain-text table: one row per fault kind, columns left-aligned for the fault
 * and right-aligned for the numbers, separated by two spaces; unavailability in seconds with one decimal. Example:
 * <pre>
 * fault        runs  acknowledged  lost  duplicated  inconsistent  unavailable s
 * kill-leader    10         51234     0           0             0            7.3
 * </pre>
 */
public final class CampaignTable {

    static final List<String> HEADER = List.of("fault", "runs", "acknowledged", "lost", "duplicated",
            "inconsistent", "unavailable s");

    private CampaignTable() {
    }

    public static String render(List<CampaignRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        cells.add(HEADER);
        for (CampaignRow row : rows) {
            cells.add(List.of(row.fault(), Integer.toString(row.runs()), Long.toString(row.acknowledged()),
                    Long.toString(row.lost()), Long.toString(row.duplicated()), Long.toString(row.inconsistent()),
                    String.format(Locale.ROOT, "%.1f", row.worstUnavailableNanos() / 1e9)));
        }
        int[] widths = new int[HEADER.size()];
        for (List<String> line : cells) {
            for (int i = 0; i < line.size(); i++) {
                widths[i] = Math.max(widths[i], line.get(i).length());
            }
        }
        StringBuilder table = new StringBuilder();
        for (List<String> line : cells) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < line.size(); i++) {
                String cell = line.get(i);
                String pad = " ".repeat(widths[i] - cell.length());
                text.append(i == 0 ? "" : "  ").append(i == 0 ? cell + pad : pad + cell);
            }
            table.append(text.toString().stripTrailing()).append('\n');
        }
        return table.toString();
    }
}
