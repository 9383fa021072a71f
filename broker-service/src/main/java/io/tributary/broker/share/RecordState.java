package io.tributary.broker.share;

/**
 * The delivery state of an in-flight record of a share-partition (KIP-932), with the ids Kafka
 * persists in {@code __share_group_state} ({@code deliveryState} of a state batch).
 *
 * <p>Legal transitions: AVAILABLE → ACQUIRED (a ShareFetch); ACQUIRED → AVAILABLE (RELEASE, lock
 * expiry, member leaving), → ACKNOWLEDGED (ACCEPT), → ARCHIVED (REJECT, GAP, or a release at the
 * delivery count limit); AVAILABLE → ARCHIVED (control batches). ACKNOWLEDGED and ARCHIVED are
 * terminal: the share-partition start offset moves past them.
 */
public enum RecordState {
    AVAILABLE((byte) 0),
    ACQUIRED((byte) 1),
    ACKNOWLEDGED((byte) 2),
    ARCHIVED((byte) 4);

    private final byte id;

    RecordState(byte id) {
        this.id = id;
    }

    /** The id persisted in a state batch. */
    public byte id() {
        return id;
    }

    /** Whether no delivery can follow: the start offset may move past a record in this state. */
    public boolean isTerminal() {
        return this == ACKNOWLEDGED || this == ARCHIVED;
    }

    /** Whether a record in this state may move to {@code next}. */
    public boolean canTransitionTo(RecordState next) {
        return switch (this) {
            case AVAILABLE -> next == ACQUIRED || next == ARCHIVED;
            case ACQUIRED -> next == AVAILABLE || next == ACKNOWLEDGED || next == ARCHIVED || next == ACQUIRED;
            case ACKNOWLEDGED, ARCHIVED -> false;
        };
    }

    /**
     * @throws IllegalArgumentException an id Kafka does not define
     */
    public static RecordState forId(byte id) {
        for (RecordState state : values()) {
            if (state.id == id) {
                return state;
            }
        }
        throw new IllegalArgumentException("Unknown share record delivery state " + id);
    }
}
