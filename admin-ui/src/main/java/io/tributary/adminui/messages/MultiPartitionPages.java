package io.tributary.adminui.messages;

import io.tributary.adminui.messages.MessageViews.Message;
import io.tributary.adminui.messages.MessageViews.ProxyOffsets;
import io.tributary.adminui.messages.MessageViews.ProxyRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.security.concurrent.DelegatingSecurityContextExecutorService;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * Pages over several partitions at once, in timestamp order. A page position is a cursor
 * {@code "p:offset,p:offset"} naming a boundary in every partition; a page forward from it takes
 * the records at or after each partition's boundary, a page backward the records before it. The
 * records of a page are merged from the partitions' heads (forward) or tails (backward), the
 * earliest (latest) timestamp first, so each partition contributes a run of consecutive offsets and
 * the next cursor never skips a record. Each partition is read at most {@code count} records a page.
 * The partitions' offsets and records are asked of the proxy {@value #READ_CONCURRENCY} partitions at
 * a time, not one after another.
 */
final class MultiPartitionPages {

    /** The most partitions one page reads. */
    static final int MAX_PARTITIONS = 32;

    /** Proxy calls in flight for one page at most (shared by all pages: a small daemon pool). */
    static final int READ_CONCURRENCY = 8;

    /** Each read runs as the caller who asked for the page (their proxy identity travels with the task). */
    private static final ExecutorService READS = new DelegatingSecurityContextExecutorService(
        Executors.newFixedThreadPool(READ_CONCURRENCY, r -> {
            Thread thread = new Thread(r, "partition-reads");
            thread.setDaemon(true);
            return thread;
        }));

    /**
     * @param records        the page's records as the proxy gave them, in timestamp order
     * @param start          each partition's position the page was read from (forward: its first
     *                       boundary; backward: its last)
     * @param previousCursor the cursor to page backward from (null on the first page)
     * @param nextCursor     the cursor to page forward from (null when every partition is read to its end)
     */
    record Page(List<ProxyRecord> records, Map<Integer, ProxyOffsets> offsets, Map<Integer, Long> start,
            boolean forward, String previousCursor, String nextCursor) {

        /** The records decoded for display. */
        List<Message> messages() {
            return records.stream().map(PayloadDecoder::message).toList();
        }
    }

    private static final Comparator<ProxyRecord> ORDER = Comparator.comparingLong(ProxyRecord::timestamp)
        .thenComparingInt(ProxyRecord::partition).thenComparingLong(ProxyRecord::offset);

    private final MessagesProxyClient proxy;

    /** Whether only committed transactions' records are read. */
    private final boolean committed;

    MultiPartitionPages(MessagesProxyClient proxy, boolean committed) {
        this.committed = committed;
        this.proxy = proxy;
    }

    /**
     * {@code call} for each partition on the read pool, keyed by partition in ascending order;
     * rethrows the first failure as it was thrown (e.g. the proxy's error, passed on to the page).
     */
    private static <T> Map<Integer, T> each(Collection<Integer> partitions, IntFunction<T> call) {
        Map<Integer, CompletableFuture<T>> futures = new TreeMap<>();
        for (int p : partitions) {
            futures.put(p, CompletableFuture.supplyAsync(() -> call.apply(p), READS));
        }
        Map<Integer, T> results = new TreeMap<>();
        try {
            futures.forEach((p, f) -> results.put(p, f.join()));
        } catch (CompletionException e) {
            futures.values().forEach(f -> f.cancel(true));
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
        return results;
    }

    /**
     * A page of {@code partitions}: {@code from} is oldest, newest, offset (the same offset in each),
     * timestamp, after (forward from {@code cursor}) or before (backward from {@code cursor}).
     */
    Page page(String topic, List<Integer> partitions, String from, Long offset, Long timestamp, String cursor,
            int count) {
        Map<Integer, ProxyOffsets> offsets = each(partitions, p -> proxy.offsets(topic, p));
        Map<Integer, Long> positions = new TreeMap<>();
        boolean forward = true;
        switch (from) {
            case "oldest" -> offsets.forEach((p, o) -> positions.put(p, o.beginningOffset()));
            case "newest" -> {
                offsets.forEach((p, o) -> positions.put(p, o.endOffset()));
                forward = false;
            }
            case "offset" -> offsets.forEach((p, o) -> positions.put(p,
                Math.min(Math.max(offset, o.beginningOffset()), o.endOffset())));
            case "timestamp" -> each(offsets.keySet(), p -> {
                ProxyOffsets o = offsets.get(p);
                List<ProxyRecord> first = o.beginningOffset() >= o.endOffset() ? List.of()
                    : proxy.read(topic, p, null, timestamp, 1, committed);
                return first.isEmpty() ? o.endOffset() : first.get(0).offset();
            }).forEach(positions::put);
            case "after", "before" -> {
                Map<Integer, Long> named = parse(cursor);
                offsets.forEach((p, o) -> positions.put(p, Math.min(Math.max(named.getOrDefault(p,
                    "after".equals(from) ? o.endOffset() : o.beginningOffset()), o.beginningOffset()), o.endOffset())));
                forward = "after".equals(from);
            }
            default -> throw new IllegalArgumentException("from must be oldest, newest, offset, timestamp, after or before");
        }
        boolean ahead = forward;
        Map<Integer, Deque<ProxyRecord>> runs = new LinkedHashMap<>(each(positions.keySet(), p -> {
            long pos = positions.get(p);
            ProxyOffsets o = offsets.get(p);
            long start = ahead ? pos : Math.max(o.beginningOffset(), pos - count);
            long stop = ahead ? Math.min(o.endOffset(), pos + count) : pos;
            List<ProxyRecord> read = start >= stop ? List.of()
                : proxy.read(topic, p, start, null, (int) (stop - start), committed);
            return read.stream().filter(r -> r.offset() >= start && r.offset() < stop)
                .sorted(Comparator.comparingLong(ProxyRecord::offset))
                .collect(Collectors.toCollection(ArrayDeque::new));
        }));
        List<ProxyRecord> taken = new ArrayList<>();
        while (taken.size() < count) {
            Deque<ProxyRecord> best = null;
            for (Deque<ProxyRecord> run : runs.values()) {
                if (run.isEmpty()) {
                    continue;
                }
                if (best == null || (forward ? ORDER.compare(run.peekFirst(), best.peekFirst()) < 0
                        : ORDER.compare(run.peekLast(), best.peekLast()) > 0)) {
                    best = run;
                }
            }
            if (best == null) {
                break;
            }
            taken.add(forward ? best.pollFirst() : best.pollLast());
        }
        taken.sort(ORDER);
        // The boundaries around what was taken: a partition that gave nothing keeps its position.
        Map<Integer, Long> low = new TreeMap<>(positions);
        Map<Integer, Long> high = new TreeMap<>(positions);
        for (ProxyRecord r : taken) {
            low.merge(r.partition(), r.offset(), Math::min);
            high.merge(r.partition(), r.offset() + 1, Math::max);
        }
        boolean earlier = low.entrySet().stream().anyMatch(e -> e.getValue() > offsets.get(e.getKey()).beginningOffset());
        boolean later = high.entrySet().stream().anyMatch(e -> e.getValue() < offsets.get(e.getKey()).endOffset());
        return new Page(List.copyOf(taken), offsets, positions, forward, earlier ? format(low) : null,
            later ? format(high) : null);
    }

    /** {@code "0:5,1:7"} as partition to offset. */
    static Map<Integer, Long> parse(String cursor) {
        Map<Integer, Long> positions = new TreeMap<>();
        if (cursor == null || cursor.isBlank()) {
            throw new IllegalArgumentException("cursor is required, as partition:offset,...");
        }
        for (String part : cursor.split(",")) {
            String[] pair = part.strip().split(":");
            try {
                positions.put(Integer.parseInt(pair[0]), Long.parseLong(pair[1]));
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                throw new IllegalArgumentException("cursor must be partition:offset,... not " + cursor);
            }
        }
        return positions;
    }

    static String format(Map<Integer, Long> positions) {
        return positions.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(","));
    }
}
