package io.tributary.broker.producer;

/**
 * Proof, held by one produce request, that the transaction coordinator confirmed the partition is
 * in the producer's ongoing transaction (KIP-890 part 1). A leader creates a guard when a
 * producer's first transactional batch arrives with no transaction open here, asks the
 * coordinator (AddPartitionsToTxn, verify only), and appends only if the guard it holds is still
 * the producer's current one: a marker written meanwhile clears it, so a verification that raced
 * with the end of the transaction cannot open a new, hanging one (the ABA case). Guards compare by
 * identity.
 *
 * <p>Thread-safe (immutable).
 */
public final class VerificationGuard {

    /** The guard of an append verification does not apply to: it is off, or the writer is not a client. */
    public static final VerificationGuard NOT_REQUIRED = new VerificationGuard("NOT_REQUIRED");
    /** The guard of a client's append that was not verified: it may only continue a transaction open here. */
    public static final VerificationGuard SENTINEL = new VerificationGuard("SENTINEL");

    private static final java.util.concurrent.atomic.AtomicLong CREATED = new java.util.concurrent.atomic.AtomicLong();

    private final String name;

    VerificationGuard() {
        this("#" + CREATED.incrementAndGet());
    }

    private VerificationGuard(String name) {
        this.name = name;
    }

    /** Whether {@code requestGuard} is this guard, and this a real one. */
    public boolean verifies(VerificationGuard requestGuard) {
        return this != SENTINEL && this != NOT_REQUIRED && requestGuard == this;
    }

    @Override
    public String toString() {
        return "VerificationGuard(" + name + ")";
    }
}
