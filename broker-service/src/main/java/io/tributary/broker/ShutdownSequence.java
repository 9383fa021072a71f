package io.tributary.broker;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a broker's parts are stopped, in one fixed order: {@link Step}'s declaration order, whatever
 * order the parts were built in. {@link BrokerComponentsBuilder} adds each part's stop as soon as
 * the part exists, so a start that fails half way stops exactly what it built.
 *
 * <p>Immutable once built; {@link #run} runs each stop once per call, logging (not throwing) a
 * failing stop so the later ones still run. Not for concurrent use while being built.
 */
final class ShutdownSequence {

    private static final Logger log = LoggerFactory.getLogger(ShutdownSequence.class);

    /** The stop steps, in the order they run. */
    enum Step {
        /** Its admin client talks to this broker's listener. */
        CONSUMER_LAG_METRICS("consumer lag metrics"),
        /** Resigns (other brokers elect a new controller) while this broker is still registered. */
        CONTROLLER("controller"),
        /** Publishes offline replicas into the registration: stops before it. */
        LOG_DIR_FAILURE_HANDLER("log dir failure handler"),
        /** Deletes this broker's ephemeral registration, so it leaves the live brokers. */
        REGISTRATION("registration"),
        /** No new requests from here on. */
        LISTENERS("listener"),
        /** After the listeners, whose connections it counts: its broker-wide meter goes. */
        CONNECTION_QUOTAS("connection quotas"),
        LISTENER_SECURITY("listener security"),
        /** After the listeners: requests already queued are answered or dropped, none arrive. */
        REQUEST_HANDLERS("request handler pool"),
        /** Before the logs: no role change reopens a log while the logs close. */
        METADATA_CACHE("metadata cache"),
        SCRAM_CREDENTIAL_STORE("SCRAM credential store"),
        ACL_STORE("ACL store"),
        GROUP_COORDINATOR("group coordinator"),
        TRANSACTION_COORDINATOR("transaction coordinator"),
        SHARE_COORDINATOR("share coordinator"),
        REPLICA_MANAGER("replica manager"),
        ISR_UPDATER("ISR updater"),
        /** Logs flushed, checkpointed and marked clean, once nothing writes to them. */
        LOG_MANAGER("log manager"),
        /** After the log manager, whose flushes and checkpoints it runs. */
        SCHEDULER("scheduler"),
        ZOOKEEPER_CLIENT("ZooKeeper client"),
        /** Last: every other part's ZooKeeper work is done. */
        EMBEDDED_ZOOKEEPER("embedded ZooKeeper");

        private final String part;

        Step(String part) {
            this.part = part;
        }
    }

    /** A stop that may throw {@link InterruptedException} (e.g. a scheduler's). */
    @FunctionalInterface
    interface Stop {
        void run() throws InterruptedException;
    }

    private record Entry(Step step, Stop stop) {
    }

    private final List<Entry> entries;

    private ShutdownSequence(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** The stops added so far to {@code builder}, in {@link Step} order. */
    static ShutdownSequence of(Builder builder) {
        List<Entry> ordered = new ArrayList<>();
        builder.stops.forEach((step, stops) -> stops.forEach(stop -> ordered.add(new Entry(step, stop))));
        return new ShutdownSequence(ordered);
    }

    /** Nothing to stop (a broker that never started). */
    static ShutdownSequence none() {
        return new ShutdownSequence(List.of());
    }

    /** Runs every stop in order; one that fails is logged and the next one runs. */
    void run() {
        for (Entry entry : entries) {
            try {
                entry.stop().run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                log.warn("Error stopping the {}", entry.step().part, e);
            }
        }
    }

    /** Collects the stops while the parts are built; several stops of one step run in the order added. */
    static final class Builder {

        private final Map<Step, List<Stop>> stops = new EnumMap<>(Step.class);

        void add(Step step, Stop stop) {
            stops.computeIfAbsent(step, s -> new ArrayList<>()).add(stop);
        }
    }
}
