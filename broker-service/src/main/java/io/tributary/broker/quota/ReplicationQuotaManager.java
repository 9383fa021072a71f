package io.tributary.broker.quota;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.SimpleRate;
import org.apache.kafka.common.utils.Time;

/**
 * One side of the replication throttle (KIP-73), as Kafka's {@code ReplicationQuotaManager}: the
 * rate in bytes per second of the replication traffic of throttled replicas, measured over
 * {@code replication.quota.window.num} (11) windows of one second, against
 * {@code leader.replication.throttled.rate} or {@code follower.replication.throttled.rate}
 * ({@link Long#MAX_VALUE}: unthrottled). Which replicas are throttled is the topics' business
 * ({@link ThrottledReplicas}); out-of-sync throttled replicas stop moving data while the rate is
 * above the quota, in-sync ones never do.
 *
 * <p>Thread-safe: kafka-clients' {@link Sensor} is.
 */
public final class ReplicationQuotaManager {

    /** Which side: the leader answering followers, or the follower fetching. */
    public enum Type { LEADER, FOLLOWER }

    /** Kafka's {@code replication.quota.window.num} and {@code .window.size.seconds}. */
    static final int WINDOWS = 11;
    static final int WINDOW_SECONDS = 1;

    private final Time time;
    private final Metrics metrics;
    private final Sensor sensor;
    private final MetricName rateName;
    private volatile long bytesPerSecond = Long.MAX_VALUE;

    public ReplicationQuotaManager(Type type, Time time) {
        this.time = time;
        this.metrics = new Metrics(new MetricConfig(), java.util.List.of(), time);
        this.rateName = metrics.metricName("byte-rate", type.name(), "Replication bytes per second of throttled replicas",
            Map.of());
        this.sensor = metrics.sensor(type.name() + "-replication", quotaConfig(Long.MAX_VALUE));
        sensor.add(rateName, new SimpleRate(), quotaConfig(Long.MAX_VALUE));
    }

    private static MetricConfig quotaConfig(long bytesPerSecond) {
        return new MetricConfig().timeWindow(WINDOW_SECONDS, TimeUnit.SECONDS).samples(WINDOWS)
            .quota(Quota.upperBound(bytesPerSecond));
    }

    /** Sets the quota, bytes per second ({@link Long#MAX_VALUE}: none). */
    public void updateQuota(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("a replication quota must not be negative: " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
        KafkaMetric metric = metrics.metrics().get(rateName);
        metric.config(quotaConfig(bytesPerSecond));
    }

    /** Whether the measured rate is above the quota (never without one). */
    public boolean isQuotaExceeded() {
        if (bytesPerSecond == Long.MAX_VALUE) {
            return false;
        }
        try {
            sensor.checkQuotas();
            return false;
        } catch (QuotaViolationException e) {
            return true;
        }
    }

    /** Counts bytes of throttled replicas moved now. */
    public void record(long bytes) {
        if (bytes > 0) {
            sensor.record(bytes, time.milliseconds(), false);
        }
    }
}
