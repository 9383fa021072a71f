package io.tributary.broker.transaction;

import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.replica.ProduceResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.apache.kafka.server.common.TransactionVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional ids this broker coordinates and their persistence in
 * {@code __transaction_state}, as Kafka's {@code TransactionStateManager}: the coordinator of an id
 * is the leader of partition {@link TransactionLogRecords#partitionFor}. When this broker becomes
 * leader of such a partition it loads the partition's ids (requests for them get
 * COORDINATOR_LOAD_IN_PROGRESS meanwhile) in that leader epoch, which is the coordinator epoch its
 * markers carry; when it stops leading it unloads them (NOT_COORDINATOR).
 *
 * <p>Each change of an id is written before it takes effect ({@link #write}): the cached metadata
 * moves to the new value only once the record is replicated (acks=all). While one write of an id
 * is in flight, another is refused with CONCURRENT_TRANSACTIONS (retriable), as is a write made
 * from metadata that is no longer current.
 *
 * <p>Thread-safety: thread-safe. Ownership, loads and in-flight writes change under {@code this};
 * the cache is concurrent; write completions run on the thread that completes the append.
 */
public final class TransactionStateManager {

    private static final Logger log = LoggerFactory.getLogger(TransactionStateManager.class);

    /** One load of a partition, in one coordinator epoch; a later load of the same partition is another instance. */
    private static final class PartitionLoad {
        private final int coordinatorEpoch;
        private volatile boolean loaded;

        private PartitionLoad(int coordinatorEpoch) {
            this.coordinatorEpoch = coordinatorEpoch;
        }
    }

    private final CoordinatorLog coordinatorLog;
    private final TransactionMetrics metrics;
    private final Supplier<TransactionVersion> transactionVersion;
    private final int numPartitions;
    private final long writeTimeoutMs;
    private final Time time;
    private final Map<String, TransactionMetadata> transactions = new ConcurrentHashMap<>();
    /** The partitions this broker leads, loading or loaded. */
    private final Map<Integer, PartitionLoad> ownedPartitions = new ConcurrentHashMap<>();
    /** Ids with a write in flight; guarded by {@code this}. */
    private final Set<String> writesInFlight = new HashSet<>();
    private final ExecutorService loader = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "transaction-state-loader");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param numPartitions  {@code transaction.state.log.num.partitions}
     * @param writeTimeoutMs how long a write waits for replication, ms
     */
    public TransactionStateManager(CoordinatorLog coordinatorLog, int numPartitions, long writeTimeoutMs, Time time) {
        this(coordinatorLog, numPartitions, writeTimeoutMs, TransactionMetrics.unregistered(), () -> TransactionVersion.TV_0,
            time);
    }

    /**
     * @param metrics            where partition load times are recorded
     * @param transactionVersion the finalized {@code transaction.version}, read at every write: it
     *                           picks the version of the values written
     */
    public TransactionStateManager(CoordinatorLog coordinatorLog, int numPartitions, long writeTimeoutMs,
                                   TransactionMetrics metrics, Supplier<TransactionVersion> transactionVersion,
                                   Time time) {
        this.metrics = metrics;
        this.transactionVersion = transactionVersion;
        this.coordinatorLog = coordinatorLog;
        this.numPartitions = numPartitions;
        this.writeTimeoutMs = writeTimeoutMs;
        this.time = time;
    }

    /** The {@code __transaction_state} partition of an id. */
    public int partitionFor(String transactionalId) {
        return TransactionLogRecords.partitionFor(transactionalId, numPartitions);
    }

    /**
     * Whether this broker may serve the id now.
     *
     * @return NONE, NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS
     */
    public Errors coordinatorError(String transactionalId) {
        PartitionLoad load = ownedPartitions.get(partitionFor(transactionalId));
        if (load == null) {
            return Errors.NOT_COORDINATOR;
        }
        return load.loaded ? Errors.NONE : Errors.COORDINATOR_LOAD_IN_PROGRESS;
    }

    /** The coordinator epoch (the partition's leader epoch) this broker serves the id in, if it does. */
    public OptionalInt coordinatorEpoch(String transactionalId) {
        PartitionLoad load = ownedPartitions.get(partitionFor(transactionalId));
        return load == null || !load.loaded ? OptionalInt.empty() : OptionalInt.of(load.coordinatorEpoch);
    }

    /** Whether a write of the id's metadata is in flight (its next state is not current yet). */
    public synchronized boolean isWriteInFlight(String transactionalId) {
        return writesInFlight.contains(transactionalId);
    }

    /** The id's current metadata, if this broker has it loaded. */
    public Optional<TransactionMetadata> get(String transactionalId) {
        return Optional.ofNullable(transactions.get(transactionalId));
    }

    /** The metadata of every id loaded here (ListTransactions, timers). */
    public List<TransactionMetadata> all() {
        return List.copyOf(transactions.values());
    }

    /**
     * Starts loading partition {@code partition} as its leader in {@code coordinatorEpoch}. A
     * partition already owned in that epoch is not loaded again.
     *
     * @param onLoaded receives the loaded metadata on the loader thread once it is served, so the
     *                 coordinator can finish transactions that were ending (Prepare*)
     */
    public void loadPartition(int partition, int coordinatorEpoch, Consumer<List<TransactionMetadata>> onLoaded) {
        PartitionLoad load = new PartitionLoad(coordinatorEpoch);
        synchronized (this) {
            PartitionLoad current = ownedPartitions.get(partition);
            if (current != null && current.coordinatorEpoch == coordinatorEpoch) {
                return;
            }
            dropPartition(partition);
            ownedPartitions.put(partition, load);
        }
        loader.execute(() -> {
            try {
                long startMs = time.milliseconds();
                List<TransactionMetadata> loaded = load(partition);
                metrics.partitionLoaded(time.milliseconds() - startMs);
                synchronized (this) {
                    if (ownedPartitions.get(partition) != load) {
                        return; // resigned (or led again) while loading: this load is stale
                    }
                    loaded.forEach(m -> transactions.put(m.transactionalId(), m));
                    load.loaded = true;
                }
                onLoaded.accept(loaded);
                log.info("Loaded {} transactional id(s) from {}-{} in coordinator epoch {}", loaded.size(),
                    Topic.TRANSACTION_STATE_TOPIC_NAME, partition, coordinatorEpoch);
            } catch (RuntimeException e) {
                log.error("Could not load {}-{}; its transactional ids stay unavailable until the next leader change",
                    Topic.TRANSACTION_STATE_TOPIC_NAME, partition, e);
            }
        });
    }

    /**
     * Stops serving a partition's ids (this broker no longer leads it).
     *
     * @return the metadata that was unloaded
     */
    public synchronized List<TransactionMetadata> unloadPartition(int partition) {
        ownedPartitions.remove(partition);
        return dropPartition(partition);
    }

    private List<TransactionMetadata> dropPartition(int partition) {
        List<TransactionMetadata> dropped = new ArrayList<>();
        for (TransactionMetadata m : transactions.values()) {
            if (partitionFor(m.transactionalId()) == partition && transactions.remove(m.transactionalId(), m)) {
                dropped.add(m);
            }
        }
        return dropped;
    }

    /**
     * Writes {@code next} as the id's new metadata and makes it current once replicated; a
     * {@link TransactionState#DEAD} id is written as a tombstone and forgotten.
     *
     * @param expected the metadata {@code next} was made from, or null for an id new here
     * @return completes with NONE; CONCURRENT_TRANSACTIONS when another write of the id is in flight
     *         or {@code expected} is no longer current; NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS
     *         when this broker does not serve the id (also when it stopped while the write was in
     *         flight); COORDINATOR_NOT_AVAILABLE when the ISR could not take it
     */
    public CompletableFuture<Errors> write(TransactionMetadata expected, TransactionMetadata next) {
        String id = next.transactionalId();
        PartitionLoad load;
        synchronized (this) {
            Errors error = coordinatorError(id);
            if (error != Errors.NONE) {
                return CompletableFuture.completedFuture(error);
            }
            if (writesInFlight.contains(id) || transactions.get(id) != expected) {
                return CompletableFuture.completedFuture(Errors.CONCURRENT_TRANSACTIONS);
            }
            load = ownedPartitions.get(partitionFor(id));
            writesInFlight.add(id);
        }
        byte[] value = next.state() == TransactionState.DEAD ? null : TransactionLogRecords.value(next, transactionVersion.get());
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE,
            new SimpleRecord(time.milliseconds(), TransactionLogRecords.key(id), value));
        TopicPartition tp = new TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, partitionFor(id));
        CompletableFuture<ProduceResult> append;
        try {
            append = coordinatorLog.append(tp, records, writeTimeoutMs);
        } catch (RuntimeException e) {
            append = CompletableFuture.failedFuture(e);
        }
        return append.handle((result, failure) -> {
            Errors error = failure != null ? Errors.COORDINATOR_NOT_AVAILABLE : toCoordinatorError(result.error());
            if (failure != null) {
                log.error("Could not write {} of {} to {}", next.state().stateName(), id, tp, failure);
            }
            synchronized (this) {
                writesInFlight.remove(id);
                if (ownedPartitions.get(tp.partition()) != load) {
                    return Errors.NOT_COORDINATOR; // resigned meanwhile: the new coordinator reads the log
                }
                if (error == Errors.NONE) {
                    if (next.state() == TransactionState.DEAD) {
                        transactions.remove(id);
                    } else {
                        transactions.put(id, next);
                    }
                }
                return error;
            }
        });
    }

    /** How a failed write to {@code __transaction_state} is reported to clients, as in Kafka. */
    private static Errors toCoordinatorError(Errors error) {
        return switch (error) {
            case NONE -> Errors.NONE;
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT ->
                Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            default -> Errors.UNKNOWN_SERVER_ERROR;
        };
    }

    private List<TransactionMetadata> load(int partition) {
        TopicPartition tp = new TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, partition);
        Map<String, TransactionMetadata> latest = new HashMap<>();
        coordinatorLog.readBatchesToLogEnd(tp, (batch, fromOffset) -> {
            for (Record record : batch) {
                if (record.offset() >= fromOffset && record.hasKey()) {
                    apply(record, latest);
                }
            }
        });
        return List.copyOf(latest.values());
    }

    private static void apply(Record record, Map<String, TransactionMetadata> latest) {
        try {
            Optional<TransactionLogRecords.Read> read = TransactionLogRecords.read(record.key(),
                record.hasValue() ? record.value() : null);
            if (read.isEmpty()) {
                log.warn("Skipping a record of an unknown version at offset {} of {}", record.offset(),
                    Topic.TRANSACTION_STATE_TOPIC_NAME);
            } else if (read.get() instanceof TransactionLogRecords.Read.Metadata m) {
                latest.put(m.metadata().transactionalId(), m.metadata());
            } else if (read.get() instanceof TransactionLogRecords.Read.Tombstone t) {
                latest.remove(t.transactionalId());
            }
        } catch (RuntimeException e) {
            // A damaged record must not keep every id of the partition unavailable.
            log.warn("Skipping an unreadable record at offset {} of {}: {}", record.offset(),
                Topic.TRANSACTION_STATE_TOPIC_NAME, e.toString());
        }
    }

    /** Stops the loader thread and forgets everything. */
    public void shutdown() {
        loader.shutdownNow();
        transactions.clear();
        ownedPartitions.clear();
    }
}
