package io.tributary.broker.replica;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.log.PartitionLog;
import java.util.List;

/**
 * This broker's role for one partition in one leader epoch: {@link LeaderState} while it leads,
 * {@link FollowerState} while it follows. {@link Partition} holds the current one and replaces
 * it, under its write lock, when the leader or the leader epoch changes.
 *
 * <p>Invariant: the leader, the leader epoch and the log are fixed for the role's life; the
 * partition state (ISR, version) and the assigned replicas change within the epoch, never to an
 * older version. Thread-safety: the role objects are used under Partition's lock; these
 * accessors read volatile or final fields, so they may also be called without it.
 */
sealed interface PartitionRole permits LeaderState, FollowerState {

    /** The leader's broker id ({@link LeaderAndIsr#NO_LEADER} for a follower of a partition without one). */
    int leaderId();

    int leaderEpoch();

    /** The local log; null only for a follower without one. */
    PartitionLog log();

    /** The partition state last applied: the controller's, or this broker's own ISR write as leader. */
    LeaderAndIsr state();

    List<Integer> replicas();

    default List<Integer> isr() {
        return state().isr();
    }

    /**
     * Whether {@code newState}, of the same epoch, replaces {@code current}: it is not older by
     * version (a state not read from ZooKeeper, version -1, always replaces).
     */
    static boolean supersedes(LeaderAndIsr newState, LeaderAndIsr current) {
        return newState.zkVersion() >= current.zkVersion() || newState.zkVersion() < 0;
    }
}
