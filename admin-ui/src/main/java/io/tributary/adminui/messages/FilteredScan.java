package io.tributary.adminui.messages;

import io.tributary.adminui.messages.MessageViews.ProxyOffsets;
import io.tributary.adminui.messages.MessageViews.ProxyRecord;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A bounded scan for the records a {@link MessageFilter} lets through: pages of the chosen partitions
 * are read from the start position (forward from the oldest, an offset, a timestamp or a cursor;
 * backward from the newest or a cursor) and tested one record at a time, until enough matched, the
 * partitions are read to their end (or beginning), {@code maxRecords} were scanned, or the time
 * budget is spent (checked between pages). The result says how many were scanned and which bound
 * stopped the scan, with cursors to scan on from where it stopped. Not thread-safe: one per request.
 */
final class FilteredScan {

    /** Records read from each partition per page of the scan. */
    static final int PAGE_RECORDS = 100;

    /** What stopped a scan. */
    enum Stop {
        /** {@code maxMatches} records matched. */
        MATCHES,
        /** The partitions were read to their end (forward) or their beginning (backward). */
        END,
        /** {@code maxRecords} records were scanned. */
        RECORDS,
        /** The time budget was spent. */
        TIME
    }

    /**
     * @param matches        the matching records in timestamp order
     * @param previousCursor where to scan backward from (null: nothing before)
     * @param nextCursor     where to scan forward from (null: nothing after)
     */
    record Result(List<ProxyRecord> matches, Map<Integer, ProxyOffsets> offsets, String previousCursor,
            String nextCursor, long scanned, Stop stoppedBy, long elapsedMs) {
    }

    private static final Comparator<ProxyRecord> ORDER = Comparator.comparingLong(ProxyRecord::timestamp)
        .thenComparingInt(ProxyRecord::partition).thenComparingLong(ProxyRecord::offset);

    private final MultiPartitionPages pages;
    private final MessageFilter filter;
    private final int maxMatches;
    private final long maxRecords;
    private final long timeBudgetMs;
    private final Clock clock;

    FilteredScan(MultiPartitionPages pages, MessageFilter filter, int maxMatches, long maxRecords, long timeBudgetMs,
            Clock clock) {
        this.pages = pages;
        this.filter = filter;
        this.maxMatches = maxMatches;
        this.maxRecords = maxRecords;
        this.timeBudgetMs = timeBudgetMs;
        this.clock = clock;
    }

    /** Scans {@code partitions} of {@code topic} from the position {@code from} names (as {@link MultiPartitionPages#page}). */
    Result scan(String topic, List<Integer> partitions, String from, Long offset, Long timestamp, String cursor) {
        long started = clock.millis();
        List<ProxyRecord> matches = new ArrayList<>();
        long scanned = 0;
        MultiPartitionPages.Page first = null;
        String mode = from;
        String at = cursor;
        Stop stop = null;
        String onward;
        while (true) {
            MultiPartitionPages.Page page = pages.page(topic, partitions, mode, offset, timestamp, at, PAGE_RECORDS);
            if (first == null) {
                first = page;
            }
            boolean forward = page.forward();
            List<ProxyRecord> records = new ArrayList<>(page.records());
            if (!forward) {
                java.util.Collections.reverse(records);
            }
            // The boundary in each partition just past (forward) or before (backward) what was tested.
            Map<Integer, Long> position = new TreeMap<>(page.start());
            int tested = 0;
            for (ProxyRecord r : records) {
                tested++;
                scanned++;
                position.put(r.partition(), forward ? r.offset() + 1 : r.offset());
                if (filter.test(r)) {
                    matches.add(r);
                }
                if (matches.size() >= maxMatches) {
                    stop = Stop.MATCHES;
                    break;
                }
                if (scanned >= maxRecords) {
                    stop = Stop.RECORDS;
                    break;
                }
            }
            onward = forward ? page.nextCursor() : page.previousCursor();
            if (stop != null) {
                if (tested < records.size()) {
                    onward = MultiPartitionPages.format(position);
                }
                break;
            }
            if (onward == null) {
                stop = Stop.END;
                break;
            }
            if (clock.millis() - started >= timeBudgetMs) {
                stop = Stop.TIME;
                break;
            }
            mode = forward ? "after" : "before";
            at = onward;
        }
        matches.sort(ORDER);
        boolean forward = first.forward();
        return new Result(matches, first.offsets(), forward ? first.previousCursor() : onward,
            forward ? onward : first.nextCursor(), scanned, stop, clock.millis() - started);
    }
}
