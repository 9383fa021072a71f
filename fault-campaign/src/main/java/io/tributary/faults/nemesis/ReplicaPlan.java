package io.tributary.faults.nemesis;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A new replica list for one partition, as the reassigning nemeses choose it from the seed: {@link #move} replaces one
 * replica by a broker outside the partition's set when there is one (the new replica must copy the log, so the
 * reassignment stays in progress for a while), else reorders the replicas so that another one is preferred (first);
 * {@link #preferOther} only reorders. Pure functions of their arguments; immutable.
 *
 * @param replicas the target replicas, the preferred one first
 * @param moved    whether a replica moves to a broker outside the original set (false: a reorder)
 */
public record ReplicaPlan(List<Integer> replicas, boolean moved) {

    public ReplicaPlan {
        replicas = List.copyOf(replicas);
    }

    /** The preferred replica of the plan (its first). */
    public int preferred() {
        return replicas.get(0);
    }

    /**
     * A move of one of {@code current}'s replicas (drawn) to a broker of {@code brokers} outside them (drawn), in its
     * place; with no broker outside, {@link #preferOther} of {@code current}.
     *
     * @throws IllegalArgumentException if {@code current} has fewer than two replicas
     */
    public static ReplicaPlan move(List<Integer> current, List<Integer> brokers, Random random) {
        List<Integer> outside = new ArrayList<>(brokers);
        outside.removeAll(current);
        if (outside.isEmpty()) {
            return preferOther(current, current.get(0), random);
        }
        List<Integer> target = new ArrayList<>(current);
        target.set(random.nextInt(target.size()), outside.get(random.nextInt(outside.size())));
        return new ReplicaPlan(target, true);
    }

    /**
     * The same replicas as {@code current}, reordered so that one other than {@code notPreferred} (drawn) comes first
     * and the rest keep their order.
     *
     * @throws IllegalArgumentException if {@code current} has fewer than two replicas
     */
    public static ReplicaPlan preferOther(List<Integer> current, int notPreferred, Random random) {
        List<Integer> others = new ArrayList<>(current);
        others.remove(Integer.valueOf(notPreferred));
        if (others.isEmpty()) {
            throw new IllegalArgumentException("no replica of " + current + " but " + notPreferred);
        }
        Integer first = others.get(random.nextInt(others.size()));
        List<Integer> target = new ArrayList<>(current);
        target.remove(first);
        target.add(0, first);
        return new ReplicaPlan(target, false);
    }
}
