package io.tributary.broker.network;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.quota.QuotaUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection limits of one broker, shared by all its listeners, as Kafka's {@code ConnectionQuotas}
 * ({@code SocketServer.scala}; KIP-402 for the connection counts, KIP-612 for the creation rates).
 * A listener's acceptor ({@link ConnectionAcceptor}) asks it about each connection it accepts:
 * <ol>
 *   <li>{@link #recordConnectionAndGetThrottleTimeMs}: the connection counts in the broker-wide rate
 *   ({@code max.connection.creation.rate}) and its listener's rate; above either, the listener waits
 *   the returned time before going on (Kafka's acceptor sleeps).</li>
 *   <li>{@link #admit}: {@link Outcome#NO_SLOT} while the listener holds
 *   {@code listener.name.<l>.max.connections} or the broker {@code max.connections}, the listener then
 *   accepting nothing until {@code wake} is called; {@link Outcome#TOO_MANY_FROM_ADDRESS} when the client's
 *   address holds {@code max.connections.per.ip} (or its override) already, the connection then being
 *   closed (Kafka's {@code TooManyConnectionsException}); else the connection is counted until
 *   {@link #closed}.</li>
 * </ol>
 * The inter-broker listener is protected once the broker has another listener: it takes connections
 * while the broker holds {@code max.connections} and is exempt from the broker-wide rate; its
 * connections still count in the broker's total.
 *
 * <p>While the broker holds more than {@code max.connections} (connections already closing not
 * counted), the least recently active connections of the listeners that are not protected are closed
 * until it holds no more, as Kafka's processors close their {@code Selector.lowestPriorityChannel()}
 * after every poll ({@code Processor.closeExcessConnections}); here the least recently active over all
 * those listeners are chosen. That happens when a connection of the protected listener takes the broker
 * above the limit, when {@link #updateLimits} lowers it below the count, and when the inter-broker
 * listener stops being protected. Connections of the protected listener are never closed for it, so the
 * broker may stay above the limit with those alone. A listener above its own
 * {@code listener.name.<l>.max.connections}, or an address above its limit, closes nothing, as in Kafka:
 * new connections wait (or are refused) until enough have closed.
 *
 * <p>Rates are Kafka's {@code Rate} over {@code quota.window.num} windows of {@code quota.window.size.seconds}; a
 * throttle is the time the rate takes to fall back to the limit, at most one window ({@code QuotaUtils}'s).
 *
 * <p>Meters: those of each {@link ListenerConnectionQuota}, and Kafka's broker-wide
 * {@code broker-connection-accept-rate} as
 * {@code kafka.server.socket.server.metrics.broker.connection.accept.rate}. Refusals, evictions and
 * listeners that stop and start accepting are logged at INFO, at most one line of a kind per interval.
 *
 * <p>Thread-safe: acceptors and event loops call it concurrently. Every method holds one short
 * lock and never does I/O under it; none blocks except {@link #updateLimits} and the constructor,
 * which resolve host names (never call them on an event loop).
 */
public final class ConnectionQuotas {

    /** What {@link #admit} decided. */
    public enum Outcome {
        /** Counted: hand the connection on, and call {@link #closed} when it closes. */
        ADMITTED,
        /** No slot on the listener or the broker: keep the connection waiting, accept nothing until woken. */
        NO_SLOT,
        /** Its address holds its limit already: close the connection. */
        TOO_MANY_FROM_ADDRESS
    }

    /**
     * The decision on one connection.
     *
     * @param connection the counted connection when {@link Outcome#ADMITTED}, else null
     * @param limit      the address's limit when {@link Outcome#TOO_MANY_FROM_ADDRESS}, else 0
     */
    public record Admission(Outcome outcome, Connection connection, int limit) {
    }

    /** A counted connection, from {@link #admit} to {@link #closed}. */
    public final class Connection {
        private final String listener;
        private final InetAddress address;
        private final Runnable close;
        volatile long lastActiveNs;
        /** Guarded by the quotas' lock. */
        boolean evicted;
        private boolean closed;

        private Connection(String listener, InetAddress address, Runnable close) {
            this.listener = listener;
            this.address = address;
            this.close = close;
            this.lastActiveNs = time.nanoseconds();
        }

        /** Marks the connection active now (a read or a write): the least recently active one is evicted first. */
        public void recordActivity() {
            lastActiveNs = time.nanoseconds();
        }

        public String listener() {
            return listener;
        }

        public InetAddress address() {
            return address;
        }
    }

    private static final Logger log = LoggerFactory.getLogger(ConnectionQuotas.class);

    private final Object lock = new Object();
    private final String interBrokerListener;
    private final int quotaWindowNum;
    private final int quotaWindowSizeSeconds;
    private final Time time;
    private final MeterRegistry registry;
    private final Metrics metrics;
    private final IntervalLog intervalLog;
    private final Sensor brokerRate;
    private final MetricName brokerRateName;
    private final Gauge brokerRateGauge;
    // Guarded by lock.
    private ConnectionLimits limits;
    private Map<InetAddress, Integer> perIpOverrides;
    private final Map<InetAddress, Integer> counts = new HashMap<>();
    private final Map<String, ListenerConnectionQuota> listeners = new HashMap<>();
    private int total;
    /** Connections chosen to close for max.connections, whose close has not been counted yet. */
    private int evicting;

    /**
     * @param limits                 the limits to start with
     * @param interBrokerListener    the protected listener ({@code inter.broker.listener.name})
     * @param quotaWindowNum         {@code quota.window.num}: windows a creation rate is measured over
     * @param quotaWindowSizeSeconds {@code quota.window.size.seconds}: the length of one, s; also the longest throttle
     * @param logIntervalMs          at least this long between two log lines of one kind, ms (0: every line)
     * @throws IllegalArgumentException when a host name of the per-address overrides cannot be resolved
     */
    public ConnectionQuotas(ConnectionLimits limits, String interBrokerListener, int quotaWindowNum,
                            int quotaWindowSizeSeconds, long logIntervalMs, Time time, MeterRegistry registry) {
        this.interBrokerListener = interBrokerListener;
        this.quotaWindowNum = quotaWindowNum;
        this.quotaWindowSizeSeconds = quotaWindowSizeSeconds;
        this.time = time;
        this.registry = registry;
        this.metrics = new Metrics(new MetricConfig(), List.of(), time);
        this.intervalLog = new IntervalLog(logIntervalMs, time);
        this.limits = limits;
        this.perIpOverrides = limits.resolvedPerIpOverrides();
        brokerRateName = metrics.metricName("broker-connection-accept-rate", ListenerConnectionQuota.GROUP, Map.of());
        brokerRate = metrics.sensor("ConnectionAcceptRate", rateConfig(limits.maxConnectionCreationRate()));
        brokerRate.add(brokerRateName, new Rate());
        brokerRateGauge = Gauge.builder("kafka.server.socket.server.metrics.broker.connection.accept.rate", metrics,
                m -> ListenerConnectionQuota.value(m, brokerRateName))
            .description("Connections accepted per second on all listeners but the inter-broker one (KIP-612)")
            .register(registry);
    }

    /**
     * Adds a listener, with no connection.
     *
     * @param wake called after a close or a limit change when the listener waits for a slot; on any
     *             thread, so it must only hand off to the listener's acceptor
     * @throws IllegalStateException when the listener is there already
     */
    public void addListener(String listener, Runnable wake) {
        List<Runnable> wakes;
        synchronized (lock) {
            if (listeners.containsKey(listener)) {
                throw new IllegalStateException("Listener " + listener + " already has connection quotas");
            }
            listeners.put(listener, new ListenerConnectionQuota(listener, wake, metrics,
                rateConfig(limits.maxConnectionCreationRate(listener)), registry));
            wakes = takeWaiting(); // the inter-broker listener may be protected from now on
        }
        wakes.forEach(Runnable::run);
    }

    /** Removes a listener and its meters; its connections still count against the broker until closed. */
    public void removeListener(String listener) {
        List<Runnable> closes = new ArrayList<>();
        List<Runnable> wakes;
        ListenerConnectionQuota quota;
        synchronized (lock) {
            quota = listeners.remove(listener);
            if (quota == null) {
                return;
            }
            quota.removeSensors(metrics);
            if (listeners.containsKey(interBrokerListener) && !isProtected(listeners.get(interBrokerListener))) {
                closeExcessConnections("after listener " + listener + " was removed, leaving the inter-broker listener "
                    + interBrokerListener + " unprotected", closes);
            }
            wakes = takeWaiting();
        }
        quota.removeMeters(registry);
        closes.forEach(Runnable::run);
        wakes.forEach(Runnable::run);
    }

    /**
     * Counts a new connection of {@code listener} in the creation rates and returns how long the
     * listener must wait before going on with it, ms (0 within the rates): the longer of the
     * broker-wide throttle (not for the protected inter-broker listener) and the listener's, at most
     * one quota window, as Kafka's {@code recordConnectionAndGetThrottleTimeMs}. Call once per connection.
     */
    public long recordConnectionAndGetThrottleTimeMs(String listener) {
        synchronized (lock) {
            ListenerConnectionQuota quota = quota(listener);
            long now = time.milliseconds();
            long brokerThrottleMs = isProtected(quota) ? 0 : recordAndGetThrottleTimeMs(brokerRate, now);
            long throttleMs = Math.max(brokerThrottleMs, recordAndGetThrottleTimeMs(quota.rate, now));
            if (throttleMs > 0) {
                quota.throttle.record(throttleMs, now);
            }
            return throttleMs;
        }
    }

    /**
     * Counts a connection from {@code address} on {@code listener} if the limits let it in.
     *
     * @param close closes the connection without blocking, from any thread; run (outside the lock, on the thread
     *              of the call that chose it) when it is closed for {@code max.connections}
     * @return {@link Outcome#ADMITTED} with the counted connection, {@link Outcome#NO_SLOT} (the listener is
     *         woken when that may have changed), or {@link Outcome#TOO_MANY_FROM_ADDRESS} with the address's limit
     */
    public Admission admit(String listener, InetAddress address, Runnable close) {
        List<Runnable> after = new ArrayList<>();
        Admission admission;
        synchronized (lock) {
            ListenerConnectionQuota quota = quota(listener);
            Integer override = perIpOverrides.get(address);
            int max = override != null ? override : limits.maxConnectionsPerIp();
            int count = counts.getOrDefault(address, 0);
            if (!slotAvailable(quota)) {
                quota.waiting = true;
                if (!quota.blocked) {
                    quota.blocked = true;
                    logBlocked(quota, after);
                }
                admission = new Admission(Outcome.NO_SLOT, null, 0);
            } else if (count >= max) {
                quota.refusedPerIp.increment();
                long suppressed = intervalLog.allow("per-ip");
                String setting = override != null ? "max.connections.per.ip.overrides" : "max.connections.per.ip";
                if (suppressed != IntervalLog.SUPPRESS) {
                    after.add(() -> log.info("Refused a connection from {} on listener {}: the address holds its maximum "
                        + "of {} connections ({}){}", address.getHostAddress(), listener, max, setting,
                        intervalLog.more(suppressed)));
                }
                admission = new Admission(Outcome.TOO_MANY_FROM_ADDRESS, null, max);
            } else {
                Connection connection = new Connection(listener, address, close);
                counts.put(address, count + 1);
                total++;
                quota.count++;
                quota.connections.add(connection);
                admission = new Admission(Outcome.ADMITTED, connection, 0);
                if (quota.blocked) {
                    quota.blocked = false;
                    if (quota.blockLogged) {
                        int held = quota.count;
                        after.add(() -> log.info("Listener {} accepts connections again ({} open)", listener, held));
                    }
                }
                if (isProtected(quota)) {
                    closeExcessConnections("after a connection arrived on the inter-broker listener " + listener, after);
                }
            }
        }
        after.forEach(Runnable::run);
        return admission;
    }

    /** Stops counting a connection; its listener and any other that waits for a slot are woken. Idempotent. */
    public void closed(Connection connection) {
        List<Runnable> wakes;
        synchronized (lock) {
            if (connection.closed) {
                return;
            }
            connection.closed = true;
            counts.computeIfPresent(connection.address, (a, count) -> count == 1 ? null : count - 1);
            total--;
            if (connection.evicted) {
                evicting--;
            }
            ListenerConnectionQuota quota = listeners.get(connection.listener);
            if (quota != null && quota.connections.remove(connection)) {
                quota.count--;
            }
            wakes = takeWaiting();
        }
        wakes.forEach(Runnable::run);
    }

    /**
     * Replaces the limits while the broker runs (Kafka's dynamic broker configs). When the broker holds
     * more than the new {@code max.connections}, the least recently active connections of the listeners
     * that are not protected are closed until it holds no more (their close is asked for before this
     * returns; their count drops once they have closed). Other connections stay, whatever the new limits
     * of their listener or address, as in Kafka. Listeners waiting for a slot are woken to try again. A
     * connection already waiting out a rate throttle waits it out, as in Kafka.
     *
     * @throws IllegalArgumentException when a host name of the overrides cannot be resolved; nothing changes then
     */
    public void updateLimits(ConnectionLimits newLimits) {
        Map<InetAddress, Integer> resolved = newLimits.resolvedPerIpOverrides();
        ConnectionLimits old;
        List<Runnable> closes = new ArrayList<>();
        List<Runnable> wakes;
        synchronized (lock) {
            old = limits;
            limits = newLimits;
            perIpOverrides = resolved;
            updateRateQuota(brokerRateName, newLimits.maxConnectionCreationRate());
            for (ListenerConnectionQuota quota : listeners.values()) {
                updateRateQuota(quota.rateName, newLimits.maxConnectionCreationRate(quota.name));
            }
            closeExcessConnections("after the limit was lowered", closes);
            wakes = takeWaiting();
        }
        if (!old.equals(newLimits)) {
            log.info("Connection limits changed from {} to {}", old, newLimits);
        }
        closes.forEach(Runnable::run);
        wakes.forEach(Runnable::run);
    }

    /** The limits in force. */
    public ConnectionLimits limits() {
        synchronized (lock) {
            return limits;
        }
    }

    /** Counted connections of {@code listener} (0 for a listener not added). */
    public int connectionCount(String listener) {
        synchronized (lock) {
            ListenerConnectionQuota quota = listeners.get(listener);
            return quota == null ? 0 : quota.count;
        }
    }

    /** Counted connections from {@code address} on all listeners. */
    public int connectionCount(InetAddress address) {
        synchronized (lock) {
            return counts.getOrDefault(address, 0);
        }
    }

    /** Counted connections on all listeners. */
    public int totalConnectionCount() {
        synchronized (lock) {
            return total;
        }
    }

    /** The clock rates and activity are measured by. */
    public Time time() {
        return time;
    }

    /** Removes the broker-wide meter; the listeners' go with {@link #removeListener}. */
    public void close() {
        registry.remove(brokerRateGauge);
        metrics.close();
    }

    private ListenerConnectionQuota quota(String listener) {
        ListenerConnectionQuota quota = listeners.get(listener);
        if (quota == null) {
            throw new IllegalStateException("Listener " + listener + " has no connection quotas (not added, or removed)");
        }
        return quota;
    }

    /** Kafka's protected listener: the inter-broker one, once the broker has another. */
    private boolean isProtected(ListenerConnectionQuota quota) {
        return quota.name.equals(interBrokerListener) && listeners.size() > 1;
    }

    private boolean slotAvailable(ListenerConnectionQuota quota) {
        if (quota.count >= limits.maxConnections(quota.name)) {
            return false;
        }
        return isProtected(quota) || total < limits.maxConnections();
    }

    private void logBlocked(ListenerConnectionQuota quota, List<Runnable> after) {
        String listener = quota.name;
        String reason = quota.count >= limits.maxConnections(listener)
            ? "it holds " + quota.count + " connections, its listener.name." + listener.toLowerCase(Locale.ROOT)
                + ".max.connections " + limits.maxConnections(listener)
            : "the broker holds " + total + " connections, its max.connections " + limits.maxConnections();
        long suppressed = intervalLog.allow("blocked:" + listener);
        quota.blockLogged = suppressed != IntervalLog.SUPPRESS;
        if (quota.blockLogged) {
            after.add(() -> log.info("Listener {} stops accepting connections: {}; new ones wait until one closes{}",
                listener, reason, intervalLog.more(suppressed)));
        }
    }

    /**
     * Kafka's {@code closeExcessConnections}: while the broker holds more than {@code max.connections}
     * (connections chosen to close before not counted), chooses the least recently active connections of
     * the listeners that are not protected, and adds to {@code after} a log line saying why and their
     * closes, to run once the lock is left. Closes nothing when those listeners have no connection left.
     *
     * @param cause what took the broker above the limit, for the end of the log line ("after ...")
     */
    private void closeExcessConnections(String cause, List<Runnable> after) {
        int held = total - evicting;
        int max = limits.maxConnections();
        if (held <= max) {
            return;
        }
        List<Connection> victims = ConnectionEviction.leastRecentlyActive(listeners.values(),
            quota -> !isProtected(quota), held - max);
        if (victims.isEmpty()) {
            return;
        }
        Map<String, Integer> byListener = new TreeMap<>();
        List<Runnable> closes = new ArrayList<>(victims.size());
        for (Connection connection : victims) {
            connection.evicted = true;
            byListener.merge(connection.listener, 1, Integer::sum);
            closes.add(connection.close);
        }
        evicting += victims.size();
        long suppressed = intervalLog.allow("closed-above-max-connections");
        if (suppressed != IntervalLog.SUPPRESS) {
            Connection first = victims.get(0);
            String which = victims.size() == 1
                ? "the least recently active connection, from " + first.address.getHostAddress() + " on listener "
                    + first.listener
                : "the " + victims.size() + " least recently active connections (by listener " + byListener + ")";
            after.add(() -> log.info("Closing {}: the broker holds {} connections, above its max.connections {}, {}{}",
                which, held, max, cause, intervalLog.more(suppressed)));
        }
        for (Runnable close : closes) {
            after.add(() -> {
                try {
                    close.run();
                } catch (RuntimeException e) {
                    log.warn("Could not close a connection above max.connections: {}", e.toString());
                }
            });
        }
    }

    private List<Runnable> takeWaiting() {
        List<Runnable> wakes = new ArrayList<>();
        for (ListenerConnectionQuota quota : listeners.values()) {
            if (quota.waiting) {
                quota.waiting = false;
                wakes.add(quota.wake);
            }
        }
        return wakes;
    }

    private long recordAndGetThrottleTimeMs(Sensor sensor, long now) {
        try {
            sensor.record(1.0, now);
            return 0;
        } catch (QuotaViolationException e) {
            return QuotaUtils.boundedThrottleTime(e, TimeUnit.SECONDS.toMillis(quotaWindowSizeSeconds), now);
        }
    }

    private void updateRateQuota(MetricName name, int limit) {
        KafkaMetric metric = metrics.metric(name);
        if (metric != null && metric.config().quota().bound() != limit) {
            metric.config(rateConfig(limit));
        }
    }

    private MetricConfig rateConfig(int limit) {
        return new MetricConfig().timeWindow(quotaWindowSizeSeconds, TimeUnit.SECONDS).samples(quotaWindowNum)
            .quota(Quota.upperBound(limit));
    }

    /** One line per kind per interval of connection events; the listeners' connections log their closing through it. */
    IntervalLog intervalLog() {
        return intervalLog;
    }
}
