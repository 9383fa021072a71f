package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How long {@code acks=all} producers could not get a write acknowledged, measured from the history alone.
 *
 * <p>Why not count failed sends: an idempotent producer retries within its {@code delivery.timeout.ms}, so an outage
 * shorter than that shows no failure at all, only acknowledgements that stop and resume. So the measure is the
 * <em>stall</em>: the time a partition went without an acknowledgement while a send to it was outstanding.
 *
 * <p>Definition, per partition (the sends of {@code acks=all} producers to one topic partition; sends whose partition
 * the client did not choose form one group of their own): take the completion times of the OK sends in order,
 * {@code b1 < b2 < ...}, and let {@code b0} be the first invocation of any send of the group. For each gap
 * {@code (a, b]} between consecutive times, let {@code s} be the earliest invocation among the sends outstanding in
 * the gap (completed after {@code a}); the gap's stall runs from {@code max(a, s)} to {@code b}. After the last OK
 * completion, sends that still completed (failed or indeterminate) make a last stall up to the last completion. A
 * stall therefore includes an ordinary send's latency (milliseconds), an idle producer stalls nothing, and a send that
 * failed counts only by the time it kept the partition without acknowledgement. The figure a fault gets is its
 * longest stall in nanoseconds. Stateless; thread-safe.
 */
public final class Unavailability {

    private Unavailability() {
    }

    /** A time without acknowledgements on one partition while a send to it was outstanding; monotonic nanoseconds. */
    public record Stall(String partition, long startNanos, long endNanos) {

        public Stall {
            if (endNanos < startNanos) {
                throw new IllegalArgumentException("stall of " + partition + " ends at " + endNanos
                        + " ns, before its start at " + startNanos + " ns");
            }
        }

        public long nanos() {
            return endNanos - startNanos;
        }

        /**
         * True if this stall ends within {@code [fromNanos, toNanos)}. A fault's stall starts at the last
         * acknowledgement before it, a moment before the fault, but ends within its window (the campaign waits for
         * recovery before the next fault), so windows claim stalls by their end.
         */
        public boolean endsWithin(long fromNanos, long toNanos) {
            return endNanos >= fromNanos && endNanos < toNanos;
        }
    }

    /** The longest stall of the history, in nanoseconds; 0 for a history without sends. */
    public static long longestNanos(History history) {
        return stalls(history).stream().mapToLong(Stall::nanos).max().orElse(0);
    }

    /** The longest stall that ends within {@code [fromNanos, toNanos)}, in nanoseconds; 0 if none does. */
    public static long longestNanos(History history, long fromNanos, long toNanos) {
        return stalls(history).stream().filter(s -> s.endsWithin(fromNanos, toNanos)).mapToLong(Stall::nanos).max()
                .orElse(0);
    }

    /** Every stall of the history's {@code acks=all} sends, per the class's definition, partition by partition. */
    public static List<Stall> stalls(History history) {
        Map<String, List<Send>> byPartition = new LinkedHashMap<>();
        for (Send send : history.sends()) {
            if (send.acksAll()) {
                String key = send.partition().isPresent() ? send.topic() + "-" + send.partition().getAsInt()
                        : send.topic() + "-?";
                byPartition.computeIfAbsent(key, k -> new ArrayList<>()).add(send);
            }
        }
        List<Stall> stalls = new ArrayList<>();
        byPartition.forEach((partition, sends) -> stalls.addAll(stalls(partition, sends)));
        return stalls;
    }

    private static List<Stall> stalls(String partition, List<Send> sends) {
        List<Send> byCompletion = new ArrayList<>(sends);
        byCompletion.sort(Comparator.comparingLong(Send::completedNanos));
        int n = byCompletion.size();
        // earliestInvocationFrom[i]: the earliest invocation among the sends completing at index i or later.
        long[] earliestInvocationFrom = new long[n + 1];
        earliestInvocationFrom[n] = Long.MAX_VALUE;
        for (int i = n - 1; i >= 0; i--) {
            earliestInvocationFrom[i] = Math.min(earliestInvocationFrom[i + 1], byCompletion.get(i).invokedNanos());
        }
        List<Stall> stalls = new ArrayList<>();
        if (n == 0) {
            return stalls;
        }
        long previous = earliestInvocationFrom[0];
        int firstAfterPrevious = 0;
        for (int i = 0; i < n; i++) {
            Send send = byCompletion.get(i);
            if (send.outcome() != Outcome.OK) {
                continue;
            }
            long completed = send.completedNanos();
            firstAfterPrevious = firstCompletingAfter(byCompletion, firstAfterPrevious, previous);
            addStall(stalls, partition, previous, earliestInvocationFrom[firstAfterPrevious], completed);
            previous = completed;
        }
        long lastCompletion = byCompletion.get(n - 1).completedNanos();
        if (lastCompletion > previous) {
            firstAfterPrevious = firstCompletingAfter(byCompletion, firstAfterPrevious, previous);
            addStall(stalls, partition, previous, earliestInvocationFrom[firstAfterPrevious], lastCompletion);
        }
        return stalls;
    }

    private static int firstCompletingAfter(List<Send> byCompletion, int from, long nanos) {
        int i = from;
        while (i < byCompletion.size() && byCompletion.get(i).completedNanos() <= nanos) {
            i++;
        }
        return i;
    }

    private static void addStall(List<Stall> stalls, String partition, long gapStart, long earliestOutstanding,
                                 long gapEnd) {
        long start = Math.max(gapStart, earliestOutstanding);
        if (gapEnd > start) {
            stalls.add(new Stall(partition, start, gapEnd));
        }
    }
}
