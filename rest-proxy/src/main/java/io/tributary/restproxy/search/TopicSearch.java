package io.tributary.restproxy.search;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One running or finished search of a topic's records for a substring of the key, the value or
 * either: its parameters, progress (records scanned of the total in range), matches and state.
 * Thread-safe: the scanning thread updates it, HTTP threads read and cancel it.
 */
public final class TopicSearch {

    /** Where the query is looked for. */
    public enum Field { KEY, VALUE, BOTH }

    /** Lifecycle: RUNNING until the range is scanned (DONE), a bound is hit, or it is CANCELLED or FAILED. */
    public enum State { RUNNING, DONE, RECORD_LIMIT_REACHED, TIME_BUDGET_EXHAUSTED, MATCH_LIMIT_REACHED, CANCELLED,
        FAILED }

    /** What a client asked for. */
    public record Request(String topic, String query, Field field, boolean caseInsensitive, long maxRecords,
            long timeBudgetMs, int maxMatches) {
    }

    /** A snapshot of progress. */
    public record Progress(State state, long scanned, long total, int matched, long elapsedMs, String error) {
    }

    private final String id;
    private final Request request;
    private final long startedMs;
    private final byte[] needle;
    private final List<ConsumerRecord<byte[], byte[]>> matches = new ArrayList<>();
    private State state = State.RUNNING;
    private long scanned;
    private long total;
    private long finishedMs = -1;
    private String error;
    private volatile boolean cancelRequested;

    TopicSearch(String id, Request request, long startedMs) {
        this.id = id;
        this.request = request;
        this.startedMs = startedMs;
        String query = request.caseInsensitive() ? request.query().toLowerCase(Locale.ROOT) : request.query();
        this.needle = query.getBytes(StandardCharsets.UTF_8);
    }

    public String id() {
        return id;
    }

    public Request request() {
        return request;
    }

    /** Asks the scan to stop at its next record. */
    public void cancel() {
        cancelRequested = true;
    }

    boolean cancelRequested() {
        return cancelRequested;
    }

    synchronized void total(long total) {
        this.total = total;
    }

    /** Counts a scanned record and keeps it when it matches; false once the match limit is reached. */
    synchronized boolean scan(ConsumerRecord<byte[], byte[]> record) {
        scanned++;
        boolean hit = (request.field() != Field.VALUE && contains(record.key()))
            || (request.field() != Field.KEY && contains(record.value()));
        if (hit) {
            matches.add(record);
        }
        return matches.size() < request.maxMatches();
    }

    synchronized long scanned() {
        return scanned;
    }

    synchronized void finish(State finalState, long nowMs, String failure) {
        if (state == State.RUNNING) {
            state = finalState;
            finishedMs = nowMs;
            error = failure;
        }
    }

    synchronized boolean finishedBefore(long ms) {
        return finishedMs >= 0 && finishedMs < ms;
    }

    public synchronized Progress progress(long nowMs) {
        long end = finishedMs >= 0 ? finishedMs : nowMs;
        return new Progress(state, scanned, total, matches.size(), end - startedMs, error);
    }

    /** Matches from index {@code cursor}, at most {@code limit}. */
    public synchronized List<ConsumerRecord<byte[], byte[]>> matches(int cursor, int limit) {
        if (cursor >= matches.size()) {
            return List.of();
        }
        return List.copyOf(matches.subList(cursor, Math.min(matches.size(), cursor + limit)));
    }

    private boolean contains(byte[] haystack) {
        if (haystack == null || haystack.length < needle.length) {
            return false;
        }
        if (request.caseInsensitive()) {
            haystack = new String(haystack, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT)
                .getBytes(StandardCharsets.UTF_8);
        }
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
