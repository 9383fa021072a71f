package io.tributary.faults.campaign;

import io.tributary.faults.harness.ClusterProbe;
import io.tributary.faults.harness.CommandRunner;
import io.tributary.faults.harness.FaultCluster;
import io.tributary.faults.harness.MetadataView;
import io.tributary.faults.harness.QueueWorkload;
import io.tributary.faults.harness.ThreadDumps;
import io.tributary.faults.history.CheckResult;
import io.tributary.faults.history.History;
import io.tributary.faults.history.HistoryChecker;
import io.tributary.faults.history.Outcome;
import io.tributary.faults.nemesis.Nemeses;
import io.tributary.faults.nemesis.Nemesis;
import io.tributary.faults.nemesis.NemesisContext;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Runs one campaign on a started {@link FaultCluster}: creates the topic (RF 3, {@code min.insync.replicas=2}), starts
 * the {@link QueueWorkload}, and makes the faults of {@link CampaignSettings} one after another in the seed's order:
 * wait for the topic's full ISR, start the nemesis, hold, heal, wait for the ZooKeeper quorum and the full ISR again,
 * for every broker to name the same controller and brokers ({@link MetadataView}) and for what the nemesis itself checks ({@link Nemesis#verifyRecovered}), stay quiet; then finishes the workload,
 * checks the whole history and each fault's window. One cluster serves many runs, each on a topic of its own. Prints
 * what it does to {@code log}, the seed first.
 *
 * <p>Times are the JVM's monotonic clock ({@link System#nanoTime()}), the clock the workload records the history
 * with; holds and quiet periods are real sleeps, as a nemesis's schedule is. Not thread-safe: one run at a time.
 */
public final class Campaign {

    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(60);

    private final FaultCluster cluster;
    private final ClusterProbe probe;
    private final PrintStream log;
    private final HistoryChecker checker = new HistoryChecker();

    public Campaign(FaultCluster cluster, ClusterProbe probe, PrintStream log) {
        this.cluster = cluster;
        this.probe = probe;
        this.log = log;
    }

    /**
     * Runs the campaign on a new topic named {@code topic}.
     *
     * @throws IllegalStateException if the topic cannot be created or the workload's clients fail; a fault that cannot
     *                               be made, healed or recovered from ends up in {@link CampaignResult#failure()}
     */
    public CampaignResult run(CampaignSettings settings, String topic) throws InterruptedException {
        long begin = System.nanoTime();
        Random random = new Random(settings.seed());
        List<String> order = new ArrayList<>(settings.kinds());
        Collections.shuffle(order, random);
        log.printf("campaign seed %d, topic %s, faults %s%n", settings.seed(), topic, order);
        probe.createTopic(topic, settings.partitions(), settings.recoveryTimeout());
        NemesisContext context = new NemesisContext(cluster, probe, topic, settings.partitions(),
                settings.recoveryTimeout());
        QueueWorkload workload = new QueueWorkload(cluster.bootstrapServers(), topic, settings.partitions());
        workload.start();
        List<FaultRecord> faults = new ArrayList<>();
        Optional<String> failure = Optional.empty();
        try {
            Thread.sleep(settings.warmUp().toMillis());
            for (String kind : order) {
                FaultRecord fault = makeFault(Nemeses.create(kind), context, settings, random);
                faults.add(fault);
                if (fault.failure().isPresent()) {
                    failure = Optional.of("seed " + settings.seed() + ", fault " + kind + ": " + fault.failure().get());
                    log.println("campaign stops making faults: " + failure.get());
                    break;
                }
                Thread.sleep(between(settings.quietMin(), settings.quietMax(), random).toMillis());
            }
        } finally {
            cluster.network().heal();
        }
        History history = workload.finish(FINISH_TIMEOUT);
        CheckResult whole = checker.check(history);
        Map<String, List<CheckResult>> byKind = FaultAttribution.resultsByKind(history, faults, checker);
        CampaignResult result = new CampaignResult(settings.seed(), topic, faults, whole, byKind,
                history.sends().size(), history.polls().size(), (System.nanoTime() - begin) / 1e9, failure);
        log.printf(Locale.ROOT, "campaign seed %d: %d sends, %d transactions (%d committed, %d aborted), %d polls, "
                        + "%d OK commits, %d records read at the end, %.1f s%s%n", settings.seed(), result.sends(),
                history.transactions().size(),
                history.transactions().stream().filter(t -> t.outcome() == Outcome.OK).count(),
                history.transactions().stream().filter(t -> t.outcome() == Outcome.FAIL).count(), result.polls(),
                history.commits().stream().filter(c -> c.outcome() == Outcome.OK).count(),
                history.finalReads().records().size(), result.wallSeconds(),
                whole.valid() ? "" : ", anomalies " + whole.examples());
        return result;
    }

    private FaultRecord makeFault(Nemesis nemesis, NemesisContext context, CampaignSettings settings, Random random)
            throws InterruptedException {
        Duration hold = between(settings.holdMin(), settings.holdMax(), random);
        if (hold.compareTo(nemesis.maximumHold()) > 0) {
            hold = nemesis.maximumHold();
        }
        if (hold.compareTo(nemesis.minimumHold()) < 0) {
            hold = nemesis.minimumHold();
        }
        long start = System.nanoTime();
        String description = "";
        long heal = start;
        try {
            description = nemesis.start(context, random);
            log.printf(Locale.ROOT, "nemesis %s: %s, held %d ms%n", nemesis.kind(), description, hold.toMillis());
            Thread.sleep(hold.toMillis());
            heal = System.nanoTime();
            nemesis.heal(context);
            cluster.zooKeeper().awaitQuorum(settings.recoveryTimeout());
            probe.awaitFullIsr(context.topic(), settings.recoveryTimeout());
            MetadataView.awaitAgreement(cluster, settings.recoveryTimeout());
            nemesis.verifyRecovered(context);
        } catch (RuntimeException e) {
            log.println("nemesis " + nemesis.kind() + " failed: " + e);
            ThreadDumps.ofBrokers(cluster, CommandRunner.processes()).forEach(line -> log.println("  " + line));
            try {
                nemesis.heal(context);
            } catch (RuntimeException again) {
                e.addSuppressed(again);
            }
            return new FaultRecord(nemesis.kind(), description, start, heal, System.nanoTime(),
                    Optional.of(e.toString()));
        }
        FaultRecord fault = new FaultRecord(nemesis.kind(), description, start, heal, System.nanoTime(),
                Optional.empty());
        log.printf(Locale.ROOT, "healed %s; recovered (quorum, full ISR) %.1f s after the heal%n", nemesis.kind(),
                fault.recoverySeconds());
        return fault;
    }

    /** A duration in {@code [min, max]} drawn from {@code random}, to the millisecond. */
    static Duration between(Duration min, Duration max, Random random) {
        long span = max.toMillis() - min.toMillis();
        return min.plusMillis(span == 0 ? 0 : (long) (random.nextDouble() * (span + 1)));
    }
}
