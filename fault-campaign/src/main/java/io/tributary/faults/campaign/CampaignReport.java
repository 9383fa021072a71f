package io.tributary.faults.campaign;

import io.tributary.faults.history.CampaignRow;
import io.tributary.faults.history.CampaignTable;
import io.tributary.faults.history.CheckResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report of one or more campaign runs as Markdown: the table (one row per fault kind summed over every run, then
 * the whole histories), the seeds with each run's verdict, and each run's faults with their targets, holds and
 * recovery times. Stateless; thread-safe.
 */
public final class CampaignReport {

    private CampaignReport() {
    }

    /** The rows of {@code results} summed per fault kind, in order of first appearance, then the whole histories. */
    public static List<CampaignRow> rows(List<CampaignResult> results) {
        Map<String, List<CheckResult>> byKind = new LinkedHashMap<>();
        for (CampaignResult result : results) {
            for (FaultRecord fault : result.faults()) {
                byKind.computeIfAbsent(fault.kind(), k -> new ArrayList<>());
            }
            result.byKind().forEach((kind, list) -> byKind.computeIfAbsent(kind, k -> new ArrayList<>()).addAll(list));
        }
        List<CampaignRow> rows = new ArrayList<>();
        byKind.forEach((kind, list) -> rows.add(CampaignRow.of(kind, list)));
        rows.add(CampaignRow.of(CampaignResult.WHOLE, results.stream().map(CampaignResult::whole).toList()));
        return rows;
    }

    /** The Markdown report, under the heading {@code title} with the line {@code setup} below it. */
    public static String markdown(String title, String setup, List<CampaignResult> results) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(title).append("\n\n").append(setup).append("\n\n");
        md.append("```\n").append(CampaignTable.render(rows(results))).append("```\n\n");
        md.append("Unavailability: the longest time a partition went without an acks=all acknowledgement while a send "
                + "to it was outstanding, among the stalls that ended between the fault's start and the next fault's "
                + "start (`Unavailability`): it includes the hold, since producers cannot write to a partition whose "
                + "leader is paused, killed or cut off until a new leader is elected.\n\n");
        md.append("## Runs\n\n| seed | topic | faults | sends | wall s | verdict |\n|---|---|---|---|---|---|\n");
        for (CampaignResult r : results) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %d | %d | %.1f | %s |%n", r.seed(), r.topic(),
                    r.faults().size(), r.sends(), r.wallSeconds(), verdict(r)));
        }
        md.append("\n## Faults\n\n| seed | fault | target | held s | recovered s after heal |\n")
                .append("|---|---|---|---|---|\n");
        for (CampaignResult r : results) {
            for (FaultRecord f : r.faults()) {
                md.append(String.format(Locale.ROOT, "| %d | %s | %s | %.1f | %s |%n", r.seed(), f.kind(),
                        f.description().replace("|", "/"), f.holdSeconds(),
                        f.failure().isPresent() ? "failed: " + f.failure().get().replace("|", "/")
                                : String.format(Locale.ROOT, "%.1f", f.recoverySeconds())));
            }
        }
        return md.toString();
    }

    private static String verdict(CampaignResult r) {
        if (r.passed()) {
            return "passed";
        }
        List<String> why = new ArrayList<>();
        r.failure().ifPresent(why::add);
        r.whole().examples().values().forEach(list -> list.forEach(a -> why.add(a.toString())));
        return "FAILED: " + String.join("; ", why).replace("|", "/").replace("\n", " ");
    }
}
