package io.tributary.broker.share;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The offset bookkeeping of one share-partition (KIP-932): its start offset (SPSO), its end
 * offset, and the in-flight ranges between them.
 *
 * <p>Invariants: {@code startOffset <= endOffset}; every range lies within
 * {@code [startOffset, endOffset)}, ranges do not overlap, and the first range (if any) starts at
 * {@code startOffset} and is not terminal ({@link #advanceStartOffset} drops terminal ranges at the
 * front). Offsets in {@code [startOffset, endOffset)} outside every range are missing from the log
 * (compaction, or a gap between batches). {@code endOffset} is exclusive: the first offset never
 * acquired; Kafka's SPEO is {@code endOffset - 1}.
 *
 * <p>Not thread-safe: owned by one {@link SharePartition}, which holds its monitor.
 */
final class InFlightRecords {

    private final TreeMap<Long, InFlightRange> ranges = new TreeMap<>();
    private long startOffset;
    private long endOffset;
    /** {@link #inFlightMessageCount()} as last published, for readers without the owner's monitor. */
    private volatile long publishedMessageCount;
    /** {@link #inFlightBatchCount()} as last published, for readers without the owner's monitor. */
    private volatile int publishedBatchCount;

    InFlightRecords(long startOffset) {
        this.startOffset = startOffset;
        this.endOffset = startOffset;
    }

    /**
     * Records from a persisted state: its batches from {@code startOffset} on, states and delivery
     * counts kept (ACQUIRED ones AVAILABLE again: their member's lock did not survive), the gaps between
     * them AVAILABLE and never delivered.
     */
    static InFlightRecords fromState(ShareGroupState state) {
        InFlightRecords records = new InFlightRecords(state.startOffset());
        long next = state.startOffset();
        for (PersistedStateBatch batch : state.stateBatches()) {
            if (batch.lastOffset() < next) {
                continue;
            }
            long first = Math.max(batch.firstOffset(), next);
            if (first > next) {
                records.put(new InFlightRange(next, first - 1, RecordState.AVAILABLE, 0, null, -1));
            }
            RecordState recordState = RecordState.forId(batch.deliveryState());
            records.put(new InFlightRange(first, batch.lastOffset(),
                recordState == RecordState.ACQUIRED ? RecordState.AVAILABLE : recordState, batch.deliveryCount(), null, -1));
            next = batch.lastOffset() + 1;
        }
        records.endOffset = next;
        records.advanceStartOffset();
        return records;
    }

    long startOffset() {
        return startOffset;
    }

    /** A deep copy: changes to it (a projection of acknowledgements) leave this one as it is. */
    InFlightRecords copy() {
        InFlightRecords copy = new InFlightRecords(startOffset);
        copy.endOffset = endOffset;
        for (InFlightRange range : ranges.values()) {
            copy.ranges.put(range.firstOffset, range.slice(range.firstOffset, range.lastOffset));
        }
        return copy;
    }

    /** The first offset never acquired (exclusive end of the in-flight window). */
    long endOffset() {
        return endOffset;
    }

    /** Offsets in the in-flight window, {@code endOffset - startOffset}: what {@code max.record.locks} bounds. */
    long windowSize() {
        return endOffset - startOffset;
    }

    /** Where the next read should start: the first AVAILABLE offset, else {@link #endOffset}. */
    long nextFetchOffset() {
        for (InFlightRange range : ranges.values()) {
            if (range.state == RecordState.AVAILABLE) {
                return range.firstOffset;
            }
        }
        return endOffset;
    }

    /**
     * Acquires for {@code memberId} the offsets of {@code [first, last]} it may: the AVAILABLE
     * in-flight ones (their delivery count goes up) and those at or after {@link #endOffset} (delivered
     * for the first time; the window grows to at most {@code maxWindow} offsets).
     *
     * @param maxCount most offsets to acquire; a batch-optimized acquisition stops only between ranges
     *                 ({@code strict} false), a record-limit one cuts a range
     * @return the ranges acquired, by offset
     */
    List<AcquiredRange> acquire(long first, long last, String memberId, long lockId, int maxCount, boolean strict,
                                long maxWindow) {
        List<AcquiredRange> acquired = new ArrayList<>();
        long remaining = maxCount;
        long from = Math.max(first, startOffset);
        for (InFlightRange range : overlapping(from, Math.min(last, endOffset - 1))) {
            if (remaining <= 0) {
                return acquired;
            }
            if (range.state != RecordState.AVAILABLE) {
                continue;
            }
            long lo = Math.max(range.firstOffset, from);
            long hi = Math.min(range.lastOffset, last);
            if (strict) {
                hi = Math.min(hi, lo + remaining - 1);
            }
            InFlightRange taken = isolate(lo, hi);
            taken.transition(RecordState.ACQUIRED);
            taken.deliveryCount++;
            taken.memberId = memberId;
            taken.lockId = lockId;
            remaining -= taken.count();
            acquired.add(new AcquiredRange(lo, hi, taken.deliveryCount));
        }
        long lo = Math.max(from, endOffset);
        long hi = Math.min(last, startOffset + maxWindow - 1);
        if (strict) {
            hi = Math.min(hi, lo + remaining - 1);
        }
        if (remaining > 0 && lo <= hi) {
            endOffset = hi + 1;
            put(new InFlightRange(lo, hi, RecordState.ACQUIRED, 1, memberId, lockId));
            acquired.add(new AcquiredRange(lo, hi, 1));
        }
        return acquired;
    }

    /**
     * Archives the offsets of {@code [first, last]} never delivered (a control batch): those past
     * {@link #endOffset}, and AVAILABLE ones not delivered yet.
     */
    void archiveUndelivered(long first, long last) {
        long from = Math.max(first, startOffset);
        for (InFlightRange range : overlapping(from, Math.min(last, endOffset - 1))) {
            if (range.state == RecordState.AVAILABLE && range.deliveryCount == 0) {
                isolate(Math.max(range.firstOffset, from), Math.min(range.lastOffset, last))
                    .transition(RecordState.ARCHIVED);
            }
        }
        long lo = Math.max(from, endOffset);
        if (lo <= last) {
            endOffset = last + 1;
            put(new InFlightRange(lo, last, RecordState.ARCHIVED, 0, null, -1));
        }
    }

    /**
     * Whether every in-flight offset of {@code [first, last]} is ACQUIRED by {@code memberId}, and the
     * range lies within the window.
     */
    boolean heldBy(String memberId, long first, long last) {
        if (first < startOffset || last >= endOffset) {
            return false;
        }
        for (InFlightRange range : overlapping(first, last)) {
            if (range.state != RecordState.ACQUIRED || !memberId.equals(range.memberId)) {
                return false;
            }
        }
        return true;
    }

    /** The ranges exactly covering the in-flight offsets of {@code [first, last]}, split where needed. */
    List<InFlightRange> isolateAll(long first, long last) {
        List<InFlightRange> result = new ArrayList<>();
        for (InFlightRange range : overlapping(first, last)) {
            result.add(isolate(Math.max(range.firstOffset, first), Math.min(range.lastOffset, last)));
        }
        return result;
    }

    /** The ACQUIRED ranges within {@code [first, last]} matching {@code filter}. */
    List<InFlightRange> acquired(long first, long last, Predicate<InFlightRange> filter) {
        List<InFlightRange> result = new ArrayList<>();
        for (InFlightRange range : overlapping(first, last)) {
            if (range.state == RecordState.ACQUIRED && filter.test(range)) {
                result.add(range);
            }
        }
        return result;
    }

    /** Drops the terminal ranges at the front; the start offset moves to the first range left, or the end. */
    void advanceStartOffset() {
        while (!ranges.isEmpty() && ranges.firstEntry().getValue().state.isTerminal()) {
            ranges.pollFirstEntry();
        }
        startOffset = ranges.isEmpty() ? endOffset : ranges.firstKey();
        publish();
    }

    /**
     * The delivery complete count (KIP-1226): offsets at or after the start offset whose delivery is
     * complete (ACKNOWLEDGED or ARCHIVED). Offsets missing from the log are not counted; releases never
     * count (the records go back to AVAILABLE). Walks the in-flight ranges.
     */
    int deliveryCompleteCount() {
        long count = 0;
        for (InFlightRange range : ranges.values()) {
            if (range.state.isTerminal()) {
                count += range.count();
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, count);
    }

    /** This bookkeeping as the state to persist: start offset, batches and delivery complete count. */
    ShareGroupState toState(int stateEpoch, int leaderEpoch) {
        return new ShareGroupState(stateEpoch, leaderEpoch, startOffset, stateBatches(), deliveryCompleteCount());
    }

    /**
     * Records in flight (KIP-1103 {@code InFlightMessageCount}, as Kafka 4.4 counts them): every offset of
     * the window from the start offset to the last offset acquired, whatever its state; 0 when nothing is in
     * flight. Read without the owner's monitor: the value published by the last change.
     */
    long inFlightMessageCount() {
        return publishedMessageCount;
    }

    /**
     * In-flight ranges (KIP-1103 {@code InFlightBatchCount}): the record batches acquired, split where an
     * acknowledgement or acquisition covered part of one. Read without the owner's monitor, as published.
     */
    int inFlightBatchCount() {
        return publishedBatchCount;
    }

    /** Publishes the gauge values; called (under the owner's monitor) after every change of the window or ranges. */
    private void publish() {
        publishedBatchCount = ranges.size();
        publishedMessageCount = ranges.isEmpty() ? 0 : endOffset - startOffset;
    }

    /**
     * The state to persist: every range from the start offset, adjacent ones of equal state and count
     * merged; ACQUIRED ones as AVAILABLE with their delivery count (a lock does not outlive a leader).
     */
    List<PersistedStateBatch> stateBatches() {
        List<PersistedStateBatch> batches = new ArrayList<>();
        for (InFlightRange range : ranges.values()) {
            RecordState state = range.state == RecordState.ACQUIRED ? RecordState.AVAILABLE : range.state;
            PersistedStateBatch previous = batches.isEmpty() ? null : batches.get(batches.size() - 1);
            if (previous != null && previous.lastOffset() + 1 == range.firstOffset
                    && previous.deliveryState() == state.id() && previous.deliveryCount() == range.deliveryCount) {
                batches.set(batches.size() - 1, new PersistedStateBatch(previous.firstOffset(), range.lastOffset,
                    state.id(), previous.deliveryCount()));
            } else {
                batches.add(new PersistedStateBatch(range.firstOffset, range.lastOffset, state.id(),
                    (short) range.deliveryCount));
            }
        }
        return batches;
    }

    /** The state of {@code offset}, or null when it is not in flight (for tests). */
    InFlightRange rangeOf(long offset) {
        Map.Entry<Long, InFlightRange> floor = ranges.floorEntry(offset);
        return floor == null || floor.getValue().lastOffset < offset ? null : floor.getValue();
    }

    /** Offsets ACQUIRED now. */
    long acquiredCount() {
        long count = 0;
        for (InFlightRange range : ranges.values()) {
            if (range.state == RecordState.ACQUIRED) {
                count += range.count();
            }
        }
        return count;
    }

    private void put(InFlightRange range) {
        ranges.put(range.firstOffset, range);
        publish();
    }

    /** The ranges holding some offset of {@code [first, last]}, by offset (a copy: callers split them). */
    private List<InFlightRange> overlapping(long first, long last) {
        if (last < first) {
            return List.of();
        }
        Long from = ranges.floorKey(first);
        return new ArrayList<>(ranges.subMap(from == null ? first : from, true, last, true).values())
            .stream().filter(r -> r.lastOffset >= first).toList();
    }

    /**
     * Splits the range holding {@code [lo, hi]} (one range must hold both) so that exactly these
     * offsets form a range of their own, and returns it.
     */
    private InFlightRange isolate(long lo, long hi) {
        InFlightRange range = rangeOf(lo);
        if (range == null || range.lastOffset < hi) {
            throw new IllegalStateException("Offsets " + lo + "-" + hi + " are not within one in-flight range");
        }
        if (range.firstOffset < lo) {
            put(range.slice(range.firstOffset, lo - 1));
        }
        if (range.lastOffset > hi) {
            put(range.slice(hi + 1, range.lastOffset));
        }
        InFlightRange middle = range.firstOffset == lo && range.lastOffset == hi ? range : range.slice(lo, hi);
        put(middle);
        return middle;
    }
}
