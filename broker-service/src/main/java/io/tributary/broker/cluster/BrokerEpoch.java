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
        return precedes(value, state);
    }

    /**
     * {@link #precedes(LeaderAndIsr)} for a broker epoch held elsewhere (the replication
     * simulation's brokers).
     *
     * @param brokerEpoch the czxid of the broker's current registration, or {@link #NOT_REGISTERED}
     */
    public static boolean precedes(long brokerEpoch, LeaderAndIsr state) {
        if (state.mzxid() == LeaderAndIsr.UNKNOWN_ZXID) {
            return false;
        }
        return brokerEpoch == NOT_REGISTERED || state.writtenBefore(brokerEpoch);
    }
}
