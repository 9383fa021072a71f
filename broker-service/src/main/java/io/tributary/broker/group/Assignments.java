package io.tributary.broker.group;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.Uuid;

/**
 * Set arithmetic on partition assignments of KIP-848 groups: partitions by topic id, as the
 * protocol carries them ({@code Map<topic id, Set<partition>>}). Every result is an unmodifiable
 * copy without empty topics. Stateless.
 */
final class Assignments {

    static final Map<Uuid, Set<Integer>> EMPTY = Map.of();

    private Assignments() {
    }

    /** The partitions of {@code a} that {@code b} also has. */
    static Map<Uuid, Set<Integer>> intersection(Map<Uuid, Set<Integer>> a, Map<Uuid, Set<Integer>> b) {
        Map<Uuid, Set<Integer>> out = new HashMap<>();
        a.forEach((topic, partitions) -> {
            Set<Integer> other = b.get(topic);
            if (other != null) {
                Set<Integer> both = new TreeSet<>(partitions);
                both.retainAll(other);
                out.put(topic, both);
            }
        });
        return copy(out);
    }

    /** The partitions of {@code a} that {@code b} does not have. */
    static Map<Uuid, Set<Integer>> difference(Map<Uuid, Set<Integer>> a, Map<Uuid, Set<Integer>> b) {
        Map<Uuid, Set<Integer>> out = new HashMap<>();
        a.forEach((topic, partitions) -> {
            Set<Integer> left = new TreeSet<>(partitions);
            left.removeAll(b.getOrDefault(topic, Set.of()));
            out.put(topic, left);
        });
        return copy(out);
    }

    /** The partitions of either. */
    static Map<Uuid, Set<Integer>> union(Map<Uuid, Set<Integer>> a, Map<Uuid, Set<Integer>> b) {
        Map<Uuid, Set<Integer>> out = new HashMap<>();
        for (Map<Uuid, Set<Integer>> m : java.util.List.of(a, b)) {
            m.forEach((topic, partitions) -> out.computeIfAbsent(topic, t -> new TreeSet<>()).addAll(partitions));
        }
        return copy(out);
    }

    /** Whether every partition of {@code a} is in {@code b}. */
    static boolean containsAll(Map<Uuid, Set<Integer>> b, Map<Uuid, Set<Integer>> a) {
        return a.entrySet().stream().allMatch(e -> b.getOrDefault(e.getKey(), Set.of()).containsAll(e.getValue()));
    }

    static boolean isEmpty(Map<Uuid, Set<Integer>> a) {
        return a.values().stream().allMatch(Set::isEmpty);
    }

    static int size(Map<Uuid, Set<Integer>> a) {
        return a.values().stream().mapToInt(Set::size).sum();
    }

    /** An unmodifiable copy without empty topics. */
    static Map<Uuid, Set<Integer>> copy(Map<Uuid, Set<Integer>> a) {
        Map<Uuid, Set<Integer>> out = new HashMap<>();
        a.forEach((topic, partitions) -> {
            if (!partitions.isEmpty()) {
                out.put(topic, Collections.unmodifiableSet(new TreeSet<>(partitions)));
            }
        });
        return Collections.unmodifiableMap(out);
    }

    /** The partitions as a set of (topic id, partition) pairs, for ownership maps. */
    static Set<Map.Entry<Uuid, Integer>> pairs(Map<Uuid, Set<Integer>> a) {
        Set<Map.Entry<Uuid, Integer>> out = new HashSet<>();
        a.forEach((topic, partitions) -> partitions.forEach(p -> out.add(Map.entry(topic, p))));
        return out;
    }
}
