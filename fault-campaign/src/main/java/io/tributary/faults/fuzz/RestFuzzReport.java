package io.tributary.faults.fuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts of a {@link RestFuzzer} run: answers by attack and status, and the answers that broke the rules (a 5xx,
 * a 2xx to an always-bad request, no Confluent error body, no answer at all), described. Thread-safe.
 */
public final class RestFuzzReport {

    private static final int EXAMPLES = 50;

    private final Map<RestAttack, Map<Integer, AtomicLong>> statuses = new EnumMap<>(RestAttack.class);
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong violationCount = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private volatile Duration elapsed = Duration.ZERO;

    RestFuzzReport() {
        for (RestAttack a : RestAttack.values()) {
            statuses.put(a, Collections.synchronizedMap(new TreeMap<>()));
        }
    }

    void answered(RestAttack attack, int status) {
        requests.incrementAndGet();
        statuses.get(attack).computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
    }

    void violation(String description) {
        violationCount.incrementAndGet();
        if (violations.size() < EXAMPLES) {
            violations.add(description);
        }
    }

    void finished(Duration elapsed) {
        this.elapsed = elapsed;
    }

    /** Requests sent (answered or not). */
    public long requests() {
        return requests.get();
    }

    /** Answers that broke the rules, in all. */
    public long violationCount() {
        return violationCount.get();
    }

    /** Up to 50 of them, described. */
    public List<String> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }

    /** Answers to {@code attack} with {@code status} (0: no answer). */
    public long count(RestAttack attack, int status) {
        AtomicLong n = statuses.get(attack).get(status);
        return n == null ? 0 : n.get();
    }

    public Duration elapsed() {
        return elapsed;
    }

    /** One line per attack: its answers by status. */
    public String table() {
        StringBuilder s = new StringBuilder();
        statuses.forEach((attack, byStatus) -> {
            synchronized (byStatus) {
                s.append(String.format("%-22s %s%n", attack, byStatus));
            }
        });
        s.append(String.format("%d requests in %.1f s, %d violations%n", requests(), elapsed.toMillis() / 1000.0,
                violationCount()));
        return s.toString();
    }
}
