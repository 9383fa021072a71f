package io.tributary.broker.share;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The meters of the share-partitions this broker leads, tagged {@code group}, {@code topic},
 * {@code partition} (Kafka's {@code SharePartitionMetrics} tags, KIP-1103), named in the repository's
 * Kafka style (Prometheus: dots become underscores, counters end in {@code _total}):
 * <ul>
 *   <li>{@value #IN_FLIGHT_MESSAGE_COUNT} (gauge): offsets from the share-partition start offset to the
 *       last one acquired, whatever their state, 0 when nothing is in flight (Kafka 4.4's count);</li>
 *   <li>{@value #IN_FLIGHT_BATCH_COUNT} (gauge): in-flight ranges (record batches, split where a partial
 *       acknowledgement or acquisition covered part of one);</li>
 *   <li>{@value #ACQUISITION_LOCK_TIMEOUT} (counter): records whose acquisition lock expired before they
 *       were acknowledged (Kafka's {@code AcquisitionLockTimeoutPerSec} meter, as a counter to rate);</li>
 *   <li>{@value #ARCHIVED_RECORDS} (counter, Tributary's, extra tag {@code reason} = {@code rejected} or
 *       {@code delivery_limit}): delivered records archived on this leader, counted once written.</li>
 * </ul>
 * A share-partition's meters appear when it is loaded and go when it is unloaded (fenced: leadership
 * moved, its state reset or deleted with its group); counters restart at 0 when it is loaded again.
 *
 * <p>Thread-safe. Gauges and counters read volatile or lock-free values, never a share-partition's monitor.
 */
public final class SharePartitionMetrics {

    public static final String IN_FLIGHT_MESSAGE_COUNT = "kafka.server.sharepartitionmetrics.inflightmessagecount";
    public static final String IN_FLIGHT_BATCH_COUNT = "kafka.server.sharepartitionmetrics.inflightbatchcount";
    public static final String ACQUISITION_LOCK_TIMEOUT = "kafka.server.sharepartitionmetrics.acquisitionlocktimeoutpersec";
    public static final String ARCHIVED_RECORDS = "tributary.share.partition.archived.records";

    /** Registers nothing (unit tests, brokers without a registry). */
    public static final SharePartitionMetrics NONE = new SharePartitionMetrics(null);

    /** The meters of one share-partition key, reading whichever share-partition currently holds the key. */
    private static final class Registration {
        private volatile SharePartition current;
        private final List<Meter> meters = new ArrayList<>();

        private Registration(SharePartition current) {
            this.current = current;
        }
    }

    private final MeterRegistry registry;
    /** Guarded by this object's monitor. */
    private final Map<SharePartitionKey, Registration> registrations = new HashMap<>();

    /** @param registry where the meters go; null registers none */
    public SharePartitionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Reports {@code sp} under its key from now on: its meters are registered, or, when an older
     * share-partition of the key is still registered (not yet unloaded), taken over.
     */
    public synchronized void register(SharePartition sp) {
        if (registry == null) {
            return;
        }
        Registration existing = registrations.get(sp.key());
        if (existing != null) {
            existing.current = sp;
            return;
        }
        Registration r = new Registration(sp);
        SharePartitionKey key = sp.key();
        Tags tags = Tags.of("group", key.groupId(), "topic", key.partition().topic(),
            "partition", Integer.toString(key.partition().partition()));
        r.meters.add(Gauge.builder(IN_FLIGHT_MESSAGE_COUNT, r, x -> x.current.inFlightMessageCount()).tags(tags)
            .description("Records in flight in the share-partition (start offset to last acquired offset)")
            .strongReference(true).register(registry));
        r.meters.add(Gauge.builder(IN_FLIGHT_BATCH_COUNT, r, x -> x.current.inFlightBatchCount()).tags(tags)
            .description("In-flight batches of the share-partition").strongReference(true).register(registry));
        r.meters.add(FunctionCounter.builder(ACQUISITION_LOCK_TIMEOUT, r,
                x -> x.current.stats().acquisitionLockTimeoutRecords()).tags(tags)
            .description("Records whose acquisition lock expired").register(registry));
        for (ArchiveReason reason : ArchiveReason.values()) {
            r.meters.add(FunctionCounter.builder(ARCHIVED_RECORDS, r, x -> x.current.stats().archivedRecords(reason))
                .tags(tags.and("reason", reasonTag(reason)))
                .description("Delivered records archived by this share-partition leader").register(registry));
        }
        registrations.put(key, r);
    }

    /** Removes the meters of {@code sp}'s key, unless another share-partition of the key took them over. */
    public synchronized void unregister(SharePartition sp) {
        if (registry == null) {
            return;
        }
        Registration r = registrations.get(sp.key());
        if (r == null || r.current != sp) {
            return;
        }
        registrations.remove(sp.key());
        r.meters.forEach(registry::remove);
    }

    /** The {@code reason} tag of {@link #ARCHIVED_RECORDS}: {@code rejected} or {@code delivery_limit}. */
    static String reasonTag(ArchiveReason reason) {
        return switch (reason) {
            case REJECTED -> "rejected";
            case DELIVERY_COUNT_EXCEEDED -> "delivery_limit";
        };
    }

    /** Share-partitions reported now (for tests). */
    synchronized int size() {
        return registrations.size();
    }
}
