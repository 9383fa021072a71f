package io.tributary.broker.producer;

/** Where an append comes from, which decides the checks it gets. */
public enum AppendOrigin {
    /** A producer writing to the leader: sequences and epochs are enforced. */
    CLIENT,
    /**
     * A transaction coordinator's markers to a leader (WriteTxnMarkers, KIP-98): control batches are
     * allowed, producer and coordinator epochs are enforced, sequences are not (markers have none).
     */
    COORDINATOR,
    /** A follower copying the leader's log: batches are taken as the leader wrote them. */
    REPLICATION,
    /** Replaying the log on recovery. */
    LOG
}
