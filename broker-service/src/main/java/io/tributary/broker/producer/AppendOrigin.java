package io.tributary.broker.producer;

/** Where an append comes from, which decides the checks it gets. */
public enum AppendOrigin {
    /** A producer writing to the leader: sequences and epochs are enforced. */
    CLIENT,
    /** A follower copying the leader's log: batches are taken as the leader wrote them. */
    REPLICATION,
    /** Replaying the log on recovery. */
    LOG
}
