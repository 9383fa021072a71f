package io.tributary.broker.replica;

import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.PreparedAppend;
import java.util.concurrent.locks.Lock;

/**
 * A leader append prepared to run without waiting, for a network thread: it holds its
 * partition's leader lock (shared) and the log's locks ({@link PreparedAppend}). Built by
 * {@link Partition#tryLockForLeaderAppend}.
 *
 * <p>Thread-safety: confined to the thread that prepared it, which holds its locks. Call
 * {@link #append} at most once, then {@link #unlock}, always.
 */
public final class LeaderAppend {
    private final LeaderState leader;
    private final PreparedAppend prepared;
    private final Lock leaderLock;

    LeaderAppend(LeaderState leader, PreparedAppend prepared, Lock leaderLock) {
        this.leader = leader;
        this.prepared = prepared;
        this.leaderLock = leaderLock;
    }

    /** As {@link Partition#appendRecordsToLeader}, with the same errors. */
    public LogAppendInfo append(short requiredAcks, int minInSyncReplicas) {
        return leader.appendPrepared(prepared, requiredAcks, minInSyncReplicas);
    }

    /** Releases the locks. */
    public void unlock() {
        prepared.unlock();
        leaderLock.unlock();
    }
}
