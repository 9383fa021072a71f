package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.replica.ProduceResult;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The groups this broker coordinates and their persistence in {@code __consumer_offsets}: the
 * coordinator of a group is the leader of partition {@code abs(groupId.hashCode()) %
 * offsets.topic.num.partitions}. When this broker becomes leader of such a partition it loads
 * the partition's groups and offsets (requests for them get COORDINATOR_LOAD_IN_PROGRESS
 * meanwhile); when it stops leading it unloads them (NOT_COORDINATOR). Offset commits and group
 * metadata are appended as records, tombstones delete them, and the compacted topic keeps the
 * latest record per key.
 *
 * <p>Thread-safe: the registries are concurrent; a group's content is guarded by its monitor.
 */
final class GroupMetadataManager {

    private static final Logger log = LoggerFactory.getLogger(GroupMetadataManager.class);

    /** One load of a partition of the offsets topic; a later load of the same partition is another instance. */
    private static final class PartitionLoad {
        private volatile boolean loaded;
    }

    private final CoordinatorLog coordinatorLog;
    private final int numPartitions;
    private final long commitTimeoutMs;
    private final Time time;
    private final Map<String, ClassicGroup> groups = new ConcurrentHashMap<>();
    private final TransactionalOffsets transactionalOffsets = new TransactionalOffsets();
    /** The offsets-topic partitions this broker leads, loading or loaded; registration and unloading hold {@code this}. */
    private final Map<Integer, PartitionLoad> ownedPartitions = new ConcurrentHashMap<>();
    private final ExecutorService loader = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "group-metadata-loader");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param numPartitions   {@code offsets.topic.num.partitions}
     * @param commitTimeoutMs {@code offsets.commit.timeout.ms}: how long a write waits for replication
     */
    GroupMetadataManager(CoordinatorLog coordinatorLog, int numPartitions, long commitTimeoutMs, Time time) {
        this.coordinatorLog = coordinatorLog;
        this.numPartitions = numPartitions;
        this.commitTimeoutMs = commitTimeoutMs;
        this.time = time;
    }

    /** The offsets-topic partition of a group; {@code Utils.abs} maps Integer.MIN_VALUE to 0. */
    int partitionFor(String groupId) {
        return Utils.abs(groupId.hashCode()) % numPartitions;
    }

    /** The {@code __consumer_offsets} partition that holds a group's records. */
    TopicPartition offsetsPartition(String groupId) {
        return new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, partitionFor(groupId));
    }

    /**
     * Whether this broker may serve the group now.
     *
     * @return NONE, NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS
     */
    Errors coordinatorError(String groupId) {
        PartitionLoad load = ownedPartitions.get(partitionFor(groupId));
        if (load == null) {
            return Errors.NOT_COORDINATOR;
        }
        return load.loaded ? Errors.NONE : Errors.COORDINATOR_LOAD_IN_PROGRESS;
    }

    boolean anyLoading() {
        return ownedPartitions.values().stream().anyMatch(load -> !load.loaded);
    }

    ClassicGroup group(String groupId) {
        return groups.get(groupId);
    }

    ClassicGroup getOrCreate(String groupId) {
        return groups.computeIfAbsent(groupId, id -> new ClassicGroup(id, time.milliseconds()));
    }

    /** Forgets a group (deleted or dead). */
    void removeGroup(ClassicGroup group) {
        groups.remove(group.groupId(), group);
    }

    /** Groups of the partitions this broker has loaded. */
    Collection<ClassicGroup> groups() {
        return List.copyOf(groups.values());
    }

    /**
     * Starts loading partition {@code partition} of the offsets topic. A partition already owned
     * (a new leader epoch with the same leader) is not loaded again: its groups are live.
     *
     * @param onLoaded receives the loaded groups, on the loader thread, once they are registered
     */
    void loadPartition(int partition, Consumer<List<ClassicGroup>> onLoaded) {
        PartitionLoad load = new PartitionLoad();
        if (ownedPartitions.putIfAbsent(partition, load) != null) {
            return;
        }
        loader.execute(() -> {
            try {
                List<ClassicGroup> loaded = load(partition);
                synchronized (this) {
                    if (ownedPartitions.get(partition) != load) {
                        return; // resigned (and maybe led again) while loading: this load's result is stale
                    }
                    loaded.forEach(g -> groups.put(g.groupId(), g));
                    load.loaded = true;
                }
                onLoaded.accept(loaded);
                log.info("Loaded {} group(s) from {}-{}", loaded.size(), Topic.GROUP_METADATA_TOPIC_NAME, partition);
            } catch (RuntimeException e) {
                log.error("Could not load groups from {}-{}; its groups stay unavailable until the next leader change",
                    Topic.GROUP_METADATA_TOPIC_NAME, partition, e);
            }
        });
    }

    /**
     * Stops serving a partition's groups.
     *
     * @return the groups that were unloaded, for the coordinator to fail their waiting members
     */
    synchronized List<ClassicGroup> unloadPartition(int partition) {
        ownedPartitions.remove(partition);
        transactionalOffsets.forgetPartition(partition, this::partitionFor);
        List<ClassicGroup> unloaded = new ArrayList<>();
        for (ClassicGroup group : groups.values()) {
            if (partitionFor(group.groupId()) == partition) {
                groups.remove(group.groupId(), group);
                unloaded.add(group);
            }
        }
        return unloaded;
    }

    private List<ClassicGroup> load(int partition) {
        TopicPartition tp = new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, partition);
        Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets = new HashMap<>();
        Map<String, GroupRecords.StoredGroup> stored = new HashMap<>();
        // Offsets committed inside transactions, by producer, until their marker (KIP-98).
        Map<Long, Map<String, Map<TopicPartition, OffsetAndMetadata>>> inTransactions = new HashMap<>();
        ConsumerGroupRecords.Loaded consumerGroups = new ConsumerGroupRecords.Loaded();
        ShareGroupRecords.Loaded shareGroups = new ShareGroupRecords.Loaded();
        coordinatorLog.readBatchesToLogEnd(tp, (batch, fromOffset) -> {
            if (batch.isControlBatch()) {
                completeTransaction(batch, offsets, inTransactions);
                return;
            }
            Map<String, Map<TopicPartition, OffsetAndMetadata>> target = batch.isTransactional()
                ? inTransactions.computeIfAbsent(batch.producerId(), p -> new HashMap<>()) : offsets;
            for (Record record : batch) {
                if (record.offset() >= fromOffset && record.hasKey()) {
                    apply(record, target, stored, consumerGroups, shareGroups);
                }
            }
        });
        inTransactions.forEach((producerId, byGroup) -> byGroup.forEach(
            (groupId, pending) -> transactionalOffsets.add(producerId, groupId, pending)));
        long now = time.milliseconds();
        List<ClassicGroup> loaded = new ArrayList<>();
        Set<String> ids = new HashSet<>(stored.keySet());
        ids.addAll(offsets.keySet());
        ids.addAll(consumerGroups.groupIds());
        ids.addAll(shareGroups.groupIds());
        for (String groupId : ids) {
            ClassicGroup group = new ClassicGroup(groupId, now);
            GroupRecords.StoredGroup metadata = stored.get(groupId);
            if (metadata != null) {
                List<GroupMember> members = new ArrayList<>();
                for (GroupRecords.StoredMember m : metadata.members()) {
                    GroupMember member = new GroupMember(m.memberId(), m.groupInstanceId(), m.clientId(), m.clientHost(),
                        m.rebalanceTimeoutMs(), m.sessionTimeoutMs(), metadata.protocolType(),
                        List.of(new GroupMember.Protocol(metadata.protocol(), m.subscription())));
                    member.assignment(m.assignment());
                    members.add(member);
                }
                group.restore(metadata.protocolType().isEmpty() ? null : metadata.protocolType(), metadata.protocol(),
                    metadata.generation(), metadata.leader(), metadata.currentStateTimestamp(), members);
            }
            offsets.getOrDefault(groupId, Map.of()).forEach(group::commit);
            if (metadata == null) {
                consumerGroups.restoreInto(group);
                shareGroups.restoreInto(group);
            }
            loaded.add(group);
        }
        return loaded;
    }

    /** A transaction marker read on load: a COMMIT makes its producer's offsets committed, an ABORT drops them. */
    private static void completeTransaction(RecordBatch marker, Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets,
                                            Map<Long, Map<String, Map<TopicPartition, OffsetAndMetadata>>> inTransactions) {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> pending = inTransactions.remove(marker.producerId());
        java.util.Iterator<Record> records = marker.iterator();
        if (pending != null && records.hasNext()
                && ControlRecordType.parse(records.next().key()) == ControlRecordType.COMMIT) {
            pending.forEach((groupId, committed) -> offsets.computeIfAbsent(groupId, g -> new HashMap<>())
                .putAll(committed));
        }
    }

    /**
     * A transaction's marker reached offsets partition {@code partition}: its offsets there become
     * the groups' committed offsets (COMMIT) or are dropped (ABORT).
     */
    void completeTransaction(long producerId, int partition, boolean commit) {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> taken =
            transactionalOffsets.take(producerId, p -> p == partition, this::partitionFor);
        if (!commit) {
            return;
        }
        taken.forEach((groupId, committed) -> {
            ClassicGroup group = getOrCreate(groupId);
            synchronized (group) {
                if (!group.is(GroupState.DEAD)) {
                    committed.forEach(group::commit);
                }
            }
        });
    }

    /** The offsets committed inside transactions that have not ended. */
    TransactionalOffsets transactionalOffsets() {
        return transactionalOffsets;
    }

    private static void apply(Record record, Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets,
                              Map<String, GroupRecords.StoredGroup> stored, ConsumerGroupRecords.Loaded consumerGroups,
                              ShareGroupRecords.Loaded shareGroups) {
        try {
            if (ConsumerGroupRecords.isConsumerGroupKey(record.key())) {
                consumerGroups.apply(record.key(), record.hasValue() ? record.value() : null);
                return;
            }
            if (ShareGroupRecords.isShareGroupKey(record.key())) {
                shareGroups.apply(record.key(), record.hasValue() ? record.value() : null);
                return;
            }
            applyReadable(record, offsets, stored);
        } catch (RuntimeException e) {
            // A record of a newer format or a damaged one must not keep every group of the partition unavailable.
            log.warn("Skipping an unreadable record at offset {} of the offsets topic: {}", record.offset(), e.toString());
        }
    }

    private static void applyReadable(Record record, Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets,
                                      Map<String, GroupRecords.StoredGroup> stored) {
        GroupRecords.Key key = GroupRecords.readKey(record.key());
        if (key instanceof GroupRecords.OffsetKey offsetKey) {
            if (record.hasValue()) {
                offsets.computeIfAbsent(offsetKey.group(), g -> new HashMap<>())
                    .put(offsetKey.tp(), GroupRecords.readOffsetValue(record.value()));
            } else {
                Map<TopicPartition, OffsetAndMetadata> groupOffsets = offsets.get(offsetKey.group());
                if (groupOffsets != null) {
                    groupOffsets.remove(offsetKey.tp());
                    if (groupOffsets.isEmpty()) {
                        offsets.remove(offsetKey.group());
                    }
                }
            }
        } else if (record.hasValue()) {
            stored.put(key.group(), GroupRecords.readGroupValue(record.value()));
        } else {
            stored.remove(key.group());
        }
    }

    /** The group's metadata as stored: protocol, generation, leader and each member with its assignment. */
    static GroupRecords.StoredGroup snapshot(ClassicGroup group) {
        List<GroupRecords.StoredMember> members = new ArrayList<>();
        for (GroupMember m : group.members()) {
            byte[] subscription = group.protocolName() == null ? new byte[0] : m.metadata(group.protocolName());
            members.add(new GroupRecords.StoredMember(m.memberId(), m.groupInstanceId(), m.clientId(), m.clientHost(),
                m.rebalanceTimeoutMs(), m.sessionTimeoutMs(), subscription, m.assignment()));
        }
        return new GroupRecords.StoredGroup(group.protocolType(), group.generationId(), group.protocolName(),
            group.leaderId(), group.currentStateTimestamp(), members);
    }

    /** Writes the group's metadata (caller holds the group's monitor while building the snapshot). */
    CompletableFuture<Errors> storeGroup(ClassicGroup group) {
        return append(group.groupId(), List.of(new SimpleRecord(time.milliseconds(), GroupRecords.groupKey(group.groupId()),
            GroupRecords.groupValue(snapshot(group)))), false);
    }

    /** Writes records of a KIP-848 consumer group or a share group ({@link ConsumerGroupRecords}, {@link ShareGroupRecords}) in one batch. */
    CompletableFuture<Errors> storeConsumerGroupRecords(String groupId, List<SimpleRecord> records) {
        if (records.isEmpty()) {
            return CompletableFuture.completedFuture(Errors.NONE);
        }
        return append(groupId, records, false);
    }

    /** Writes committed offsets; completes with one error code for them all. */
    CompletableFuture<Errors> storeOffsets(String groupId, Map<TopicPartition, OffsetAndMetadata> commits) {
        List<SimpleRecord> records = new ArrayList<>();
        long now = time.milliseconds();
        commits.forEach((tp, offset) -> records.add(new SimpleRecord(now, GroupRecords.offsetKey(groupId, tp),
            GroupRecords.offsetValue(offset))));
        return append(groupId, records, true);
    }

    /**
     * Writes a transaction's offset commits (TxnOffsetCommit) as a transactional batch of the
     * producer, so they take effect only with its COMMIT marker (KIP-98), holding the guard of the
     * transaction's verification (KIP-890 part 1; {@link VerificationGuard#NOT_REQUIRED} when off).
     */
    CompletableFuture<Errors> storeTransactionalOffsets(String groupId, long producerId, short producerEpoch,
                                                       Map<TopicPartition, OffsetAndMetadata> commits,
                                                       VerificationGuard verificationGuard) {
        List<SimpleRecord> records = new ArrayList<>();
        long now = time.milliseconds();
        commits.forEach((tp, offset) -> records.add(new SimpleRecord(now, GroupRecords.offsetKey(groupId, tp),
            GroupRecords.offsetValue(offset))));
        MemoryRecords batch = MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, producerEpoch, 0,
            records.toArray(new SimpleRecord[0]));
        return append(groupId, batch, true, verificationGuard);
    }

    /** Writes tombstones for offsets and, if {@code deleteGroup}, for the group's metadata. */
    CompletableFuture<Errors> storeTombstones(String groupId, Collection<TopicPartition> offsetsToDelete, boolean deleteGroup) {
        List<SimpleRecord> records = new ArrayList<>();
        long now = time.milliseconds();
        for (TopicPartition tp : offsetsToDelete) {
            records.add(new SimpleRecord(now, GroupRecords.offsetKey(groupId, tp), null));
        }
        if (deleteGroup) {
            records.add(new SimpleRecord(now, GroupRecords.groupKey(groupId), null));
        }
        if (records.isEmpty()) {
            return CompletableFuture.completedFuture(Errors.NONE);
        }
        return append(groupId, records, false);
    }

    private CompletableFuture<Errors> append(String groupId, List<SimpleRecord> records, boolean offsetCommit) {
        return append(groupId, MemoryRecords.withRecords(Compression.NONE, records.toArray(new SimpleRecord[0])),
            offsetCommit);
    }

    private CompletableFuture<Errors> append(String groupId, MemoryRecords batch, boolean offsetCommit) {
        return append(groupId, batch, offsetCommit, VerificationGuard.NOT_REQUIRED);
    }

    private CompletableFuture<Errors> append(String groupId, MemoryRecords batch, boolean offsetCommit,
                                             VerificationGuard verificationGuard) {
        TopicPartition tp = offsetsPartition(groupId);
        return coordinatorLog.append(tp, batch, commitTimeoutMs, verificationGuard)
            .thenApply(result -> toCoordinatorError(result, offsetCommit))
            .exceptionally(e -> {
                log.error("Could not write to {} for group {}", tp, groupId, e);
                return Errors.COORDINATOR_NOT_AVAILABLE;
            });
    }

    /** How a failed write to the offsets topic is reported to group clients, as in Kafka. */
    private static Errors toCoordinatorError(ProduceResult result, boolean offsetCommit) {
        return toCoordinatorError(result.error(), offsetCommit);
    }

    /**
     * Kafka's {@code maybeConvertOffsetCommitError}: a write's or a transaction verification's error
     * as a group client expects it (NETWORK_EXCEPTION from a verification becomes
     * COORDINATOR_LOAD_IN_PROGRESS, which older clients retry without a new coordinator lookup).
     */
    static Errors toCoordinatorError(Errors error, boolean offsetCommit) {
        return switch (error) {
            case NONE -> Errors.NONE;
            case NETWORK_EXCEPTION -> Errors.COORDINATOR_LOAD_IN_PROGRESS;
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT ->
                Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_FETCH_SIZE ->
                offsetCommit ? Errors.INVALID_COMMIT_OFFSET_SIZE : Errors.UNKNOWN_SERVER_ERROR;
            default -> error;
        };
    }

    /** Stops the loader thread. */
    void shutdown() {
        loader.shutdownNow();
        groups.clear();
        ownedPartitions.clear();
    }
}
