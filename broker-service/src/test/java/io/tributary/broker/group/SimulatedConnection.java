package io.tributary.broker.group;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A {@link SimulatedConsumer}'s connection to the coordinator in the group simulation. Requests
 * are sent in order and the broker reads the next one only once it has answered the one before (a
 * parked JoinGroup mutes the connection, as Kafka's network layer and Tributary's do); each way
 * takes up to {@link GroupSimulation#MAX_NETWORK_DELAY_MS}, and responses arrive in the order they
 * were sent (one TCP connection). A request not answered within its timeout is reported to the
 * consumer, which drops the connection. Once closed, requests already sent still reach the broker,
 * the others are dropped, and no response is delivered.
 *
 * <p>Not thread-safe: the simulation's one thread drives it.
 */
final class SimulatedConnection {

    private final GroupSimulation sim;
    private final String owner;
    private final String label;
    private final BooleanSupplier receiving;
    private final Consumer<String> onTimeout;
    private final Deque<Request<?>> queued = new ArrayDeque<>();
    private final List<Request<?>> outstanding = new ArrayList<>();
    private boolean busy;
    private boolean closed;
    private long lastArrivalMs;

    /**
     * @param owner     the consumer's name; the connection is {@code owner#id} in the trace
     * @param receiving whether the consumer still handles responses (it has not crashed or closed)
     * @param onTimeout told what request timed out, while the connection is open
     */
    SimulatedConnection(GroupSimulation sim, String owner, int id, BooleanSupplier receiving,
                        Consumer<String> onTimeout) {
        this.sim = sim;
        this.owner = owner;
        this.label = owner + "#" + id;
        this.receiving = receiving;
        this.onTimeout = onTimeout;
    }

    /**
     * Sends a request.
     *
     * @param deliver      what the broker does with the request, when it reads it
     * @param onResponse   the consumer's handling of the answer
     * @param onDisconnect the consumer's handling of a request lost with its connection
     */
    <T> void send(String what, int timeoutMs, Supplier<CompletableFuture<T>> deliver, Consumer<T> onResponse,
                  Runnable onDisconnect) {
        if (closed) {
            onDisconnect.run();
            return;
        }
        Request<T> request = new Request<>(what, deliver, onResponse, onDisconnect);
        queued.add(request);
        outstanding.add(request);
        sim.schedule(timeoutMs, owner + ": " + what + " timeout", () -> {
            if (!request.answered && !closed) {
                onTimeout.accept(what);
            }
        });
        pump();
    }

    private void pump() {
        if (busy || closed || queued.isEmpty()) {
            return;
        }
        busy = true;
        Request<?> next = queued.poll();
        sim.schedule(sim.networkDelayMs(), label + " -> " + next.what, () -> deliver(next));
    }

    private <T> void deliver(Request<T> request) {
        request.deliver.get().whenComplete((response, e) -> {
            if (e != null) {
                throw new IllegalStateException(label + ": " + request.what + " failed", e);
            }
            busy = false;
            long arrivalMs = Math.max(sim.nowMs() + sim.networkDelayMs(), lastArrivalMs);
            lastArrivalMs = arrivalMs;
            sim.schedule(arrivalMs - sim.nowMs(), label + " <- " + request.what + ": "
                + GroupSimulation.describe(response), () -> {
                    if (!closed && !request.answered && receiving.getAsBoolean()) {
                        request.answered = true;
                        outstanding.remove(request);
                        request.onResponse.accept(response);
                    }
                });
            pump();
        });
    }

    /**
     * Closes the connection: requests sent stay sent, the rest are dropped, and none is answered.
     *
     * @param notify whether the requests lost are reported to the consumer (a disconnect it notices)
     */
    void close(boolean notify) {
        if (closed) {
            return;
        }
        closed = true;
        queued.clear();
        List<Request<?>> lost = List.copyOf(outstanding);
        outstanding.clear();
        for (Request<?> r : lost) {
            r.answered = true;
            if (notify) {
                r.onDisconnect.run();
            }
        }
    }

    private static final class Request<T> {
        final String what;
        final Supplier<CompletableFuture<T>> deliver;
        final Consumer<T> onResponse;
        final Runnable onDisconnect;
        boolean answered;

        Request(String what, Supplier<CompletableFuture<T>> deliver, Consumer<T> onResponse, Runnable onDisconnect) {
            this.what = what;
            this.deliver = deliver;
            this.onResponse = onResponse;
            this.onDisconnect = onDisconnect;
        }
    }
}
