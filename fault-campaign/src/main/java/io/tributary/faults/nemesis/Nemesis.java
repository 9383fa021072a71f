package io.tributary.faults.nemesis;

import java.time.Duration;
import java.util.Random;

/**
 * One kind of fault the campaign makes: {@link #start} chooses its target (and any timing of its own) from the
 * campaign's seeded {@link Random} and makes the fault; the campaign holds it, then {@link #heal} undoes it and waits
 * until the processes it touched run again (not until the cluster has recovered: the campaign waits for that).
 *
 * <p>A nemesis remembers its target between {@code start} and {@code heal}: one fault at a time, driven by one thread;
 * not thread-safe.
 */
public interface Nemesis {

    /** The stable name of this kind of fault, a row of the campaign's table ({@code partition-leader-followers}). */
    String kind();

    /** The shortest hold this fault needs to mean anything (a pause outlasting the session); zero by default. */
    default Duration minimumHold() {
        return Duration.ZERO;
    }

    /**
     * The longest hold that adds anything to this fault; a drawn hold is cut to it (zero for a fault its {@link #start}
     * makes and undoes by itself, as a rolling restart). Unbounded by default.
     */
    default Duration maximumHold() {
        return Duration.ofSeconds(Long.MAX_VALUE);
    }

    /**
     * Makes the fault.
     *
     * @return a sentence naming the target, for the campaign's log ("SIGSTOP broker 2, leader of queue-1")
     * @throws IllegalStateException if the target cannot be found in time (no leader, no ZooKeeper leader)
     */
    String start(NemesisContext context, Random random);

    /**
     * Undoes the fault: removes partitions, resumes or restarts processes and waits until they have started.
     *
     * @throws IllegalStateException if a restarted process does not start within the context's timeout
     */
    void heal(NemesisContext context);

    /**
     * Checks, after the campaign's recovery wait (ZooKeeper quorum, the topic's full ISR), what this fault must leave
     * behind beyond that, waiting at most the context's timeout: a reassignment it raced completes, a later preferred
     * election succeeds. Nothing by default.
     *
     * @throws IllegalStateException if the cluster does not get there in time, saying what it saw
     */
    default void verifyRecovered(NemesisContext context) {
    }
}
