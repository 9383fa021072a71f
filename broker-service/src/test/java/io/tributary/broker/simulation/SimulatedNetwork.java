package io.tributary.broker.simulation;

import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Requests and responses between the simulation's brokers and its producer, as events with
 * random delays; each message is lost with a probability, and while a broker is "slow" its
 * messages take up to ten times longer. A request reaches whatever runs at its destination
 * when it arrives (nothing, if the broker is down); a response reaches its sender only if the
 * sender has not crashed since (the producer, id -1, never does).
 *
 * <p>Not thread-safe (one simulation thread).
 */
final class SimulatedNetwork {

    static final int PRODUCER = -1;

    private final ReplicationSimulation sim;
    private final Random random;
    private final int maxDelayMs;
    private final double dropProbability;

    SimulatedNetwork(ReplicationSimulation sim, Random random, int maxDelayMs, double dropProbability) {
        this.sim = sim;
        this.random = random;
        this.maxDelayMs = maxDelayMs;
        this.dropProbability = dropProbability;
    }

    /**
     * Sends a request from {@code from} to broker {@code to}; {@code handler} answers it there
     * (at once or later) through the consumer it gets; {@code onResponse} gets the answer.
     */
    <R> void send(int from, int to, String description, BiConsumer<SimulatedBroker, Consumer<R>> handler,
                  Consumer<R> onResponse) {
        int fromIncarnation = from == PRODUCER ? 0 : sim.broker(from).incarnation();
        deliver(from, to, description, () -> {
            SimulatedBroker target = sim.broker(to);
            if (!target.isRunning()) {
                return;
            }
            handler.accept(target, response -> deliver(to, from, "response to " + description, () -> {
                if (from == PRODUCER || sim.broker(from).isRunning() && sim.broker(from).incarnation() == fromIncarnation) {
                    onResponse.accept(response);
                }
            }));
        });
    }

    private void deliver(int from, int to, String description, Runnable arrival) {
        if (random.nextDouble() < dropProbability && !sim.isHealing()) {
            sim.trace("lost: " + from + " -> " + to + " " + description);
            return;
        }
        int delay = 1 + random.nextInt(maxDelayMs);
        if (sim.isSlow(from) || sim.isSlow(to)) {
            delay *= 10;
        }
        sim.queue.schedule(delay, from + " -> " + to + " " + description, arrival);
    }
}
