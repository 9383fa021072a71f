package io.tributary.broker.share;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.FencedLeaderEpochException;
import org.apache.kafka.common.errors.FencedStateEpochException;

/**
 * A {@link ShareStatePersister} in memory: share-partition state lasts as long as the broker
 * process (a restart redelivers from the auto offset reset). Stands in for the share coordinator;
 * applies the same epoch fencing. Thread-safe; every future is completed before it is returned.
 */
public final class InMemoryShareStatePersister implements ShareStatePersister {

    private final ConcurrentMap<SharePartitionKey, ShareGroupState> states = new ConcurrentHashMap<>();

    @Override
    public CompletableFuture<Optional<ShareGroupState>> readState(SharePartitionKey key) {
        return CompletableFuture.completedFuture(Optional.ofNullable(states.get(key)));
    }

    @Override
    public CompletableFuture<Void> initializeState(SharePartitionKey key, ShareGroupState state) {
        ShareGroupState initial = new ShareGroupState(state.stateEpoch(), state.leaderEpoch(), state.startOffset(),
            java.util.List.of(), state.startOffset() == -1 ? -1 : 0);
        states.merge(key, initial, (old, next) -> next.stateEpoch() > old.stateEpoch() ? next : old);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> writeState(SharePartitionKey key, ShareGroupState state) {
        RuntimeException[] refusal = new RuntimeException[1];
        states.compute(key, (k, old) -> {
            if (old == null) {
                refusal[0] = new CoordinatorNotAvailableException("No share state initialized for " + key);
                return null;
            }
            if (state.leaderEpoch() < old.leaderEpoch()) {
                refusal[0] = new FencedLeaderEpochException("Leader epoch " + state.leaderEpoch() + " of a write to "
                    + key + " is below the stored " + old.leaderEpoch());
                return old;
            }
            if (state.stateEpoch() < old.stateEpoch()) {
                refusal[0] = new FencedStateEpochException("State epoch " + state.stateEpoch() + " of a write to "
                    + key + " is below the stored " + old.stateEpoch());
                return old;
            }
            return state;
        });
        return refusal[0] == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(refusal[0]);
    }

    @Override
    public CompletableFuture<Void> deleteState(SharePartitionKey key) {
        states.remove(key);
        return CompletableFuture.completedFuture(null);
    }

    /** The stored state, for tests and diagnostics. */
    public Optional<ShareGroupState> state(SharePartitionKey key) {
        return Optional.ofNullable(states.get(key));
    }
}
