package io.tributary.broker.share;

/**
 * A run of consecutive in-flight offsets of a share-partition sharing one state, delivery count
 * and (when acquired) member and acquisition lock. Ranges follow the record batches read from the
 * log and are split where an acknowledgement or acquisition covers only part of one. Mutable; not
 * thread-safe (guarded by its {@link SharePartition}).
 */
final class InFlightRange {

    final long firstOffset;
    final long lastOffset;
    RecordState state;
    int deliveryCount;
    /** The member holding the records while ACQUIRED, else null. */
    String memberId;
    /** The acquisition lock holding the records while ACQUIRED, else -1. */
    long lockId;

    InFlightRange(long firstOffset, long lastOffset, RecordState state, int deliveryCount, String memberId, long lockId) {
        if (lastOffset < firstOffset) {
            throw new IllegalArgumentException("In-flight range " + firstOffset + "-" + lastOffset + " is empty");
        }
        this.firstOffset = firstOffset;
        this.lastOffset = lastOffset;
        this.state = state;
        this.deliveryCount = deliveryCount;
        this.memberId = memberId;
        this.lockId = lockId;
    }

    /** A copy of this range's state over {@code [first, last]}. */
    InFlightRange slice(long first, long last) {
        return new InFlightRange(first, last, state, deliveryCount, memberId, lockId);
    }

    long count() {
        return lastOffset - firstOffset + 1;
    }

    /** Moves to {@code next}, dropping the member and lock unless still acquired. */
    void transition(RecordState next) {
        if (!state.canTransitionTo(next)) {
            throw new IllegalStateException("Offsets " + firstOffset + "-" + lastOffset + " cannot move from "
                + state + " to " + next);
        }
        state = next;
        if (next != RecordState.ACQUIRED) {
            memberId = null;
            lockId = -1;
        }
    }

    @Override
    public String toString() {
        return firstOffset + "-" + lastOffset + ":" + state + "x" + deliveryCount
            + (memberId == null ? "" : "@" + memberId + "#" + lockId);
    }
}
