package io.tributary.broker.network;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which connections to close when the broker holds more than {@code max.connections}, as Kafka's
 * {@code Selector.lowestPriorityChannel} picks them: the least recently active ones (by their last
 * read or write) of the listeners that may lose connections, ties in order of admission.
 *
 * <p>Stateless; called under {@link ConnectionQuotas}' lock.
 */
final class ConnectionEviction {

    /** A connection that may be closed, with its last activity when chosen (it may change meanwhile). */
    private record Candidate(ConnectionQuotas.Connection connection, long lastActiveNs) {
        /** Oldest activity first; by difference, as {@link System#nanoTime} values compare. */
        static final Comparator<Candidate> LEAST_RECENTLY_ACTIVE_FIRST =
            (a, b) -> Long.compare(a.lastActiveNs - b.lastActiveNs, 0);
    }

    private ConnectionEviction() {
    }

    /**
     * Up to {@code excess} connections not already chosen, of the listeners {@code mayLose} accepts,
     * least recently active first; empty when there is none.
     */
    static List<ConnectionQuotas.Connection> leastRecentlyActive(Collection<ListenerConnectionQuota> listeners,
                                                                 Predicate<ListenerConnectionQuota> mayLose, int excess) {
        List<Candidate> candidates = new ArrayList<>();
        for (ListenerConnectionQuota quota : listeners) {
            if (mayLose.test(quota)) {
                for (ConnectionQuotas.Connection connection : quota.connections) {
                    if (!connection.evicted) {
                        candidates.add(new Candidate(connection, connection.lastActiveNs));
                    }
                }
            }
        }
        if (candidates.isEmpty() || excess <= 0) {
            return List.of();
        }
        int count = Math.min(excess, candidates.size());
        if (count == 1) {
            return List.of(Collections.min(candidates, Candidate.LEAST_RECENTLY_ACTIVE_FIRST).connection());
        }
        candidates.sort(Candidate.LEAST_RECENTLY_ACTIVE_FIRST); // stable: a listener's ties in order of admission
        return candidates.subList(0, count).stream().map(Candidate::connection).toList();
    }
}
