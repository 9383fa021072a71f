package io.tributary.broker.cluster;

/**
 * This broker's epoch: the czxid of its current registration node {@code /brokers/ids/{id}}, the
 * broker epoch of Kafka's ZooKeeper mode (KIP-380). It changes each time the broker registers,
 * at start and after a ZooKeeper session expiry. {@link BrokerRegistration} sets it; the replica
 * role changes read it, to tell a partition state written for an earlier run of this broker
 * ({@link #precedes}).
 *
 * <p>Thread-safe.
 */
public final class BrokerEpoch {

    /** The value before the first registration. */
    public static final long NOT_REGISTERED = -1;

    private volatile long value = NOT_REGISTERED;

    /** The czxid of the current registration, or {@link #NOT_REGISTERED}. */
    public long get() {
        return value;
    }

    void set(long czxid) {
        value = czxid;
    }

    /**
     * Whether {@code state}, read from ZooKeeper, was written before this broker's current
     * registration, or this broker has not registered yet: then the state cannot have been
     * decided with this run of the broker alive. False for a state whose mzxid is unknown.
     */
    public boolean precedes(LeaderAndIsr state) {
        long epoch = value;
        if (state.mzxid() == LeaderAndIsr.UNKNOWN_ZXID) {
            return false;
        }
        return epoch == NOT_REGISTERED || state.writtenBefore(epoch);
    }
}
