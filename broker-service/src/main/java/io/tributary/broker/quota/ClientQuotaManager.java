package io.tributary.broker.quota;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.TokenBucket;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.Sanitizer;

/**
 * One kind of client quota ({@code producer_byte_rate}, {@code consumer_byte_rate},
 * {@code request_percentage} or {@code controller_mutation_rate}), enforced as
 * Kafka's {@code ClientQuotaManager} does (KIP-13, KIP-55, KIP-219): a request's bytes are recorded
 * in a rate over {@code quota.window.num} (11) windows of {@code quota.window.size.seconds} (1 s) of
 * the quota entity it falls under; above the quota the client is told to wait
 * ({@code throttle_time_ms}) for as long as it takes the rate to fall back to the quota, and its
 * connection is muted for that long. An entity's sensors and meters go after an hour unused.
 *
 * <p>Which quota applies to (user, client id) follows Kafka's precedence (KIP-55), the first
 * entity that sets the key winning: the user's client id, the user's default client, the user,
 * the default user's client id, the default user's default client, the default user, the client
 * id, the default client. Clients sharing the entity share its rate (all clients of a user when
 * the user's own quota applies). Without any quota, nothing is recorded.
 *
 * <p>Meters, as Kafka's JMX {@code kafka.server:type=Produce|Fetch,user=...,client-id=...}:
 * {@code kafka.server.produce.byte.rate} and {@code kafka.server.produce.throttle.time} (average
 * throttle time, ms), tagged {@code user} and {@code client-id} ("" where the entity has none);
 * {@code kafka.server.request.request.time} (% of one thread) and
 * {@code kafka.server.request.exempt.request.time} for the request quota.
 * Thread-safe.
 */
public final class ClientQuotaManager {


    /** The rate a quota is measured in: one per (user tag, client id tag). */
    private record Entity(String user, String clientId) {
    }

    private record Resolved(double bound, Entity entity) {
    }

    /**
     * What {@link #recordMutations} decided (KIP-599).
     *
     * @param accepted   whether the mutations may be made
     * @param throttleMs how long the client must wait, ms
     */
    public record Mutations(boolean accepted, int throttleMs) {
        static final Mutations FREE = new Mutations(true, 0);
    }

    private final QuotaType type;
    private final int windows;
    private final int windowSeconds;
    /** An entity's sensors and meters go after this long without use, as Kafka's (1 hour). */
    static final long INACTIVE_EXPIRATION_MS = 3_600_000;
    private final Map<Entity, Long> lastUsedMs = new ConcurrentHashMap<>();
    private volatile long nextExpiryCheckMs;
    private final ClientQuotaLookup store;
    private final Time time;
    private final MeterRegistry registry;
    private final Metrics metrics;
    private final Map<Entity, Sensor> rates = new ConcurrentHashMap<>();
    private final Map<Entity, Sensor> throttleTimes = new ConcurrentHashMap<>();
    private volatile Sensor exempt;
    /** Percent of one thread for one nanosecond of its time per second, as Kafka's {@code NanosToPercentagePerSecond}. */
    private static final double NANOS_TO_PERCENTAGE = 100.0 / TimeUnit.SECONDS.toNanos(1);

    public ClientQuotaManager(QuotaType type, ClientQuotaLookup store, Time time, MeterRegistry registry) {
        this(type, store, 11, 1, time, registry);
    }

    /**
     * @param windows       {@code quota.window.num}: windows the rate is measured over
     * @param windowSeconds {@code quota.window.size.seconds}: the length of one, s
     */
    public ClientQuotaManager(QuotaType type, ClientQuotaLookup store, int windows, int windowSeconds, Time time,
                              MeterRegistry registry) {
        this.type = type;
        this.windows = windows;
        this.windowSeconds = windowSeconds;

        this.store = store;
        this.time = time;
        this.registry = registry;
        this.metrics = new Metrics(new MetricConfig(), List.of(), time);
    }

    public QuotaType type() {
        return type;
    }

    /** The clock quotas are measured by. */
    public Time time() {
        return time;
    }

    /**
     * Records {@code value} (bytes) for the client and returns how long it must wait, ms (0 when
     * within its quota or without one).
     */
    public int recordAndGetThrottleTimeMs(String user, String clientId, double value) {
        return record(user, clientId, value, Integer.MAX_VALUE);
    }

    private int record(String user, String clientId, double value, long maxThrottleMs) {
        Resolved resolved = resolve(user, clientId);
        if (resolved == null) {
            return 0;
        }
        long now = time.milliseconds();
        Sensor sensor = rate(resolved);
        try {
            sensor.record(value, now, true);
            return 0;
        } catch (QuotaViolationException e) {
            int throttleMs = (int) Math.min(throttleTimeMs(e, now), maxThrottleMs);
            throttleTimes.computeIfAbsent(resolved.entity(), this::throttleSensor).record(throttleMs, now);
            return throttleMs;
        }
    }

    /**
     * The request-time quota (KIP-124, {@code request_percentage}): records {@code threadNanos} of
     * request handler thread time as a percentage of one thread over the rate's windows and returns
     * how long the client must wait, ms, at most one window ({@code quota.window.size.seconds}) as
     * Kafka's {@code ClientRequestQuotaManager} bounds it. 0 when within its quota or without one.
     *
     * @throws IllegalStateException on a manager of another quota type
     */
    public int recordRequestTime(String user, String clientId, long threadNanos) {
        if (type != QuotaType.REQUEST) {
            throw new IllegalStateException("not the request quota: " + type);
        }
        return record(user, clientId, threadNanos * NANOS_TO_PERCENTAGE, TimeUnit.SECONDS.toMillis(windowSeconds));
    }

    /**
     * Records thread time of a request exempt from the request-time quota (inter-broker requests,
     * follower fetches), in Kafka's {@code exempt-request-time} rate, when any quota is set.
     */
    public void recordExemptRequestTime(long threadNanos) {
        if (type != QuotaType.REQUEST || store.isEmpty()) {
            return;
        }
        exemptSensor().record(threadNanos * NANOS_TO_PERCENTAGE, time.milliseconds(), false);
    }

    private Sensor exemptSensor() {
        Sensor existing = exempt;
        if (existing != null) {
            return existing;
        }
        synchronized (this) {
            if (exempt == null) {
                Sensor sensor = metrics.sensor("exempt-" + type.name());
                MetricName name = metrics.metricName("exempt-request-time", type.metricType(), Map.of());
                sensor.add(name, new Rate(), new MetricConfig().timeWindow(windowSeconds, TimeUnit.SECONDS)
                    .samples(windows));
                Gauge.builder("kafka.server.request.exempt.request.time", metrics, m -> value(m, name))
                    .description("Request handler time of requests exempt from the request quota, % of one thread")
                    .register(registry);
                exempt = sensor;
            }
            return exempt;
        }
    }

    /**
     * Controller mutations (KIP-599, {@code controller_mutation_rate}): records {@code permits}
     * (partitions created or deleted) in the entity's token bucket, refilled at the quota per second
     * and {@code quota.window.num} seconds deep. Strict (CreateTopics v6+, CreatePartitions v3+,
     * DeleteTopics v5+): refused while the bucket is empty, accepted otherwise even if that empties
     * it; permissive (older versions): always accepted, throttled once empty. The throttle time is
     * how long the bucket takes to refill to zero.
     */
    public Mutations recordMutations(String user, String clientId, double permits, boolean strict) {
        Resolved resolved = resolve(user, clientId);
        if (resolved == null) {
            return Mutations.FREE;
        }
        long now = time.milliseconds();
        Sensor sensor = rate(resolved);
        synchronized (sensor) {
            try {
                if (strict) {
                    sensor.checkQuotas(now);
                    sensor.record(permits, now, false);
                } else {
                    sensor.record(permits, now, true);
                }
                return Mutations.FREE;
            } catch (QuotaViolationException e) {
                int throttleMs = (int) Math.min(Math.round(-e.value() / e.bound() * 1000), Integer.MAX_VALUE);
                throttleTimes.computeIfAbsent(resolved.entity(), this::throttleSensor).record(throttleMs, now);
                return new Mutations(!strict, throttleMs);
            }
        }
    }

    /** Takes back a recorded value (a fetch whose data was not sent because it was throttled). */
    public void unrecord(String user, String clientId, double value) {
        Resolved resolved = resolve(user, clientId);
        if (resolved != null) {
            rate(resolved).record(-value, time.milliseconds(), false);
        }
    }

    /**
     * The most one fetch may return to a client under a quota, bytes: the quota over all but one of
     * the windows (a larger answer would always be throttled), as Kafka's getMaxValueInQuotaWindow;
     * {@link Integer#MAX_VALUE} without a quota.
     */
    public int maxValueInQuotaWindow(String user, String clientId) {
        Resolved resolved = resolve(user, clientId);
        return resolved == null ? Integer.MAX_VALUE
            : (int) Math.min(Integer.MAX_VALUE, resolved.bound() * Math.max(1, windows - 1) * windowSeconds);
    }

    /** The quota that applies to the client, if any. */
    public OptionalDouble quota(String user, String clientId) {
        Resolved resolved = resolve(user, clientId);
        return resolved == null ? OptionalDouble.empty() : OptionalDouble.of(resolved.bound());
    }

    private Resolved resolve(String user, String clientId) {
        if (store.isEmpty()) {
            return null;
        }
        String d = ClientQuotaEntity.DEFAULT;
        String key = type.key();
        Object[][] order = {
            {user, clientId, user, clientId}, {user, d, user, clientId}, {user, null, user, ""},
            {d, clientId, user, clientId}, {d, d, user, clientId}, {d, null, user, ""},
            {null, clientId, "", clientId}, {null, d, "", clientId}};
        for (Object[] level : order) {
            OptionalDouble bound = store.quota(new ClientQuotaEntity((String) level[0], (String) level[1]), key);
            if (bound.isPresent()) {
                return new Resolved(bound.getAsDouble(), new Entity((String) level[2], (String) level[3]));
            }
        }
        return null;
    }

    /** A sensor name no two entities share: the names sanitized (no ':' left), ':' between them. */
    private String sensorName(String kind, Entity entity) {
        return type.name() + ":" + kind + ":" + Sanitizer.sanitize(entity.user()) + ":"
            + Sanitizer.sanitize(entity.clientId());
    }

    /** Removes the sensors and meters of entities unused for an hour; at most once a minute. */
    private void expireInactive(long now) {
        if (now < nextExpiryCheckMs) {
            return;
        }
        nextExpiryCheckMs = now + 60_000;
        lastUsedMs.forEach((entity, used) -> {
            if (now - used > INACTIVE_EXPIRATION_MS && lastUsedMs.remove(entity, used)) {
                for (Map<Entity, Sensor> sensors : List.of(rates, throttleTimes)) {
                    Sensor sensor = sensors.remove(entity);
                    if (sensor != null) {
                        metrics.removeSensor(sensor.name());
                    }
                }
                registry.find("kafka.server." + type.metricType().toLowerCase(java.util.Locale.ROOT) + "."
                        + rateName().replace('-', '.')).tags("user", entity.user(), "client-id", entity.clientId())
                    .meters().forEach(registry::remove);
                registry.find("kafka.server." + type.metricType().toLowerCase(java.util.Locale.ROOT) + ".throttle.time")
                    .tags("user", entity.user(), "client-id", entity.clientId()).meters().forEach(registry::remove);
            }
        });
    }

    private Sensor rate(Resolved resolved) {
        long now = time.milliseconds();
        lastUsedMs.put(resolved.entity(), now);
        expireInactive(now);
        Sensor sensor = rates.computeIfAbsent(resolved.entity(), entity -> {
            Sensor created = metrics.sensor(sensorName("rate", entity));
            MetricName name = metricName(rateName(), entity);
            if (type == QuotaType.CONTROLLER_MUTATION) {
                created.add(name, new Rate());
                created.add(metricName("tokens", entity), new TokenBucket(), quotaConfig(resolved.bound()));
            } else {
                created.add(name, new Rate(), quotaConfig(resolved.bound()));
            }
            Gauge.builder("kafka.server." + type.metricType().toLowerCase(java.util.Locale.ROOT) + "."
                    + rateName().replace('-', '.'), metrics, m -> value(m, name))
                .tag("user", entity.user()).tag("client-id", entity.clientId())
                .description((type == QuotaType.REQUEST ? "Request handler time, % of one thread,"
                    : type == QuotaType.CONTROLLER_MUTATION ? "Partition mutations per second" : "Bytes per second")
                    + " of the quota entity (" + type.key() + ")").register(registry);
            return created;
        });
        KafkaMetric metric = metrics.metrics().get(metricName(
            type == QuotaType.CONTROLLER_MUTATION ? "tokens" : rateName(), resolved.entity()));
        if (metric.config().quota().bound() != resolved.bound()) {
            metric.config(quotaConfig(resolved.bound())); // the quota changed
        }
        return sensor;
    }

    private String rateName() {
        return switch (type) {
            case CONTROLLER_MUTATION -> "mutation-rate";
            case REQUEST -> "request-time";
            default -> "byte-rate";
        };
    }

    private Sensor throttleSensor(Entity entity) {
        Sensor sensor = metrics.sensor(sensorName("throttle", entity));
        MetricName name = metricName("throttle-time", entity);
        sensor.add(name, new Avg());
        Gauge.builder("kafka.server." + type.metricType().toLowerCase(java.util.Locale.ROOT) + ".throttle.time", metrics,
                m -> value(m, name))
            .tag("user", entity.user()).tag("client-id", entity.clientId())
            .description("Average throttle time of the quota entity, ms").register(registry);
        return sensor;
    }

    private MetricName metricName(String name, Entity entity) {
        return metrics.metricName(name, type.metricType(), Map.of("user", entity.user(), "client-id", entity.clientId()));
    }

    private static double value(Metrics metrics, MetricName name) {
        KafkaMetric metric = metrics.metrics().get(name);
        Object value = metric == null ? null : metric.metricValue();
        return value instanceof Double d && !d.isNaN() ? d : 0;
    }

    private MetricConfig quotaConfig(double bound) {
        return new MetricConfig().timeWindow(windowSeconds, TimeUnit.SECONDS).samples(windows)
            .quota(Quota.upperBound(bound));
    }

    /** How long until the rate is back at the quota: the excess over the bound, in windows of the rate. */
    private static long throttleTimeMs(QuotaViolationException e, long now) {
        double difference = e.value() - e.bound();
        KafkaMetric metric = e.metric();
        long windowSizeMs = ((Rate) metric.measurable()).windowSize(metric.config(), now);
        return Math.round(difference / e.bound() * windowSizeMs);
    }
}
