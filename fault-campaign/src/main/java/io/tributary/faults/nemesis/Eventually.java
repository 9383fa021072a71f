package io.tributary.faults.nemesis;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Polls a condition on the cluster, which tells no one when it changes, every 250 ms until it holds. Stateless;
 * thread-safe.
 */
final class Eventually {

    private static final long POLL_MILLIS = 250;

    private Eventually() {
    }

    /**
     * Waits until {@code check} returns null (the condition holds); otherwise it returns what it saw.
     *
     * @throws IllegalStateException after {@code timeout}, naming {@code what} and the last thing seen (or the last
     *                               exception {@code check} threw)
     */
    static void await(Duration timeout, String what, Supplier<String> check) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String seen = "nothing";
        while (true) {
            try {
                String answer = check.get();
                if (answer == null) {
                    return;
                }
                seen = answer;
            } catch (RuntimeException e) {
                seen = e.toString();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " not within " + timeout + "; last seen: " + seen);
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what, e);
            }
        }
    }
}
