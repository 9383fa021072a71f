package io.tributary.broker.replica;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's {@code kafka.cluster:type=Partition,name=LastStableOffsetLag,topic=T,partition=P}, as the
 * Prometheus JMX exporter names it: {@code kafka_cluster_partition_laststableoffsetlag{topic,partition}},
 * the records between a partition's high watermark and its last stable offset (LSO), i.e. how far an
 * open transaction holds read_committed consumers back. A value that stays up is a transaction that
 * does not end: a slow producer, or a hanging transaction to abort ({@code kafka-transactions find-hanging}).
 *
 * <p>Reported by each partition's leader, so every partition once in the cluster. The set of series
 * follows the partitions led here every {@code refreshMs}; each value is read at scrape time.
 * Thread-safe: the refresh runs on a thread of its own.
 */
public final class LastStableOffsetLagGauges implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LastStableOffsetLagGauges.class);

    private final MultiGauge gauge;
    private final Supplier<List<Partition>> leaders;
    private final long refreshMs;
    private final ScheduledExecutorService executor;

    /**
     * @param leaders   the partitions this broker leads now
     * @param refreshMs how often the set of series follows them, ms
     */
    public LastStableOffsetLagGauges(MeterRegistry registry, Supplier<List<Partition>> leaders, long refreshMs,
                                     String threadName) {
        this.gauge = MultiGauge.builder("kafka.cluster.partition.laststableoffsetlag")
            .description("Records between the high watermark and the last stable offset (open transactions)")
            .register(registry);
        this.leaders = leaders;
        this.refreshMs = refreshMs;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts following the partitions led here. */
    public void start() {
        executor.scheduleWithFixedDelay(this::refreshQuietly, 0, refreshMs, TimeUnit.MILLISECONDS);
    }

    /** Replaces the series with one per partition led now. Called on the refresh thread (and by tests). */
    void refresh() {
        gauge.register(leaders.get().stream().map(p -> MultiGauge.Row.of(Tags.of("topic", p.topicPartition().topic(),
            "partition", Integer.toString(p.topicPartition().partition())), p, LastStableOffsetLagGauges::lag))
            .toList(), true);
    }

    private static double lag(Partition partition) {
        return partition.log().map(l -> Math.max(0, l.highWatermark() - l.lastStableOffset())).orElse(0L);
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            log.warn("Could not refresh the last stable offset lag gauges: {}", e.toString());
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
        gauge.register(List.of(), true);
    }
}
