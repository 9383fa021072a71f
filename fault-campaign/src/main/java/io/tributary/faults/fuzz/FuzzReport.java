package io.tributary.faults.fuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts of a {@link BrokerFuzzer} run: frames by mutation and outcome, connections opened, and the first few
 * frames that timed out (a broker that neither answers nor closes is a finding). Thread-safe: the workers record
 * into it concurrently.
 */
public final class FuzzReport {

    private static final int EXAMPLES = 20;

    private final Map<Mutation, Map<FrameOutcome, AtomicLong>> counts = new EnumMap<>(Mutation.class);
    private final AtomicLong connections = new AtomicLong();
    private final List<String> timeoutExamples = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicLong> closedValid = new java.util.concurrent.ConcurrentSkipListMap<>();
    private volatile Duration elapsed = Duration.ZERO;

    FuzzReport() {
        for (Mutation m : Mutation.values()) {
            Map<FrameOutcome, AtomicLong> byOutcome = new EnumMap<>(FrameOutcome.class);
            for (FrameOutcome o : FrameOutcome.values()) {
                byOutcome.put(o, new AtomicLong());
            }
            counts.put(m, byOutcome);
        }
    }

    void record(MutatedFrame frame, FrameOutcome outcome) {
        counts.get(frame.mutation()).get(outcome).incrementAndGet();
        if (outcome == FrameOutcome.TIMED_OUT && timeoutExamples.size() < EXAMPLES) {
            timeoutExamples.add(frame.toString());
        }
        if (outcome == FrameOutcome.CLOSED && frame.mutation() == Mutation.NONE) {
            closedValid.computeIfAbsent(frame.source().apiKey() + " v" + frame.source().version(),
                    k -> new AtomicLong()).incrementAndGet();
        }
    }

    void connected() {
        connections.incrementAndGet();
    }

    void finished(Duration elapsed) {
        this.elapsed = elapsed;
    }

    /** Frames sent with {@code mutation} that had {@code outcome}. */
    public long count(Mutation mutation, FrameOutcome outcome) {
        return counts.get(mutation).get(outcome).get();
    }

    /** Frames sent that had {@code outcome}, over all mutations. */
    public long count(FrameOutcome outcome) {
        return counts.values().stream().mapToLong(m -> m.get(outcome).get()).sum();
    }

    /** Every frame sent. */
    public long frames() {
        return counts.values().stream().flatMap(m -> m.values().stream()).mapToLong(AtomicLong::get).sum();
    }

    /** Connections opened to the broker. */
    public long connections() {
        return connections.get();
    }

    /** Up to 20 frames that timed out, described. */
    public List<String> timeoutExamples() {
        synchronized (timeoutExamples) {
            return List.copyOf(timeoutExamples);
        }
    }

    /** Valid (unmutated) requests the broker closed the connection on, by API and version, with their counts. */
    public Map<String, Long> closedValid() {
        Map<String, Long> copy = new java.util.TreeMap<>();
        closedValid.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    /** Wall-clock time of the run. */
    public Duration elapsed() {
        return elapsed;
    }

    /** A table: one line per mutation with its count per outcome, then the totals. */
    public String table() {
        StringBuilder s = new StringBuilder(String.format("%-22s %10s %10s %10s %10s%n", "mutation", "answered", "closed",
                "timed out", "hung up"));
        counts.forEach((m, byOutcome) -> s.append(String.format("%-22s %10d %10d %10d %10d%n", m,
                byOutcome.get(FrameOutcome.ANSWERED).get(), byOutcome.get(FrameOutcome.CLOSED).get(),
                byOutcome.get(FrameOutcome.TIMED_OUT).get(), byOutcome.get(FrameOutcome.HUNG_UP).get())));
        s.append(String.format("%d frames over %d connections in %.1f s%n", frames(), connections(),
                elapsed.toMillis() / 1000.0));
        return s.toString();
    }
}
