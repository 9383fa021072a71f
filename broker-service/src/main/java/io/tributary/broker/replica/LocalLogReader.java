package io.tributary.broker.replica;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.AbortedTransaction;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.FetchIsolation;
import io.tributary.broker.log.LogOffsetMetadata;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.quota.ReplicationQuotaManager;
import io.tributary.broker.quota.ThrottledReplicas;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of a fetch over the partitions hosted here, as Kafka's {@code ReplicaManager.readFromLog}:
 * a follower reads to the log end (or is told where its log diverges, KIP-595) and moves its fetch
 * state, which may move the high watermark; a consumer reads to the high watermark or, with
 * {@code read_committed}, the last stable offset, from the leader, from this follower (KIP-392), or is
 * sent to a preferred read replica. A read_committed read also gets the last stable offset's aborted
 * transactions its range overlaps, from the transaction indexes. The first partition with records is read whole even above the
 * byte limits; after it, {@code maxBytes} of the request bounds what the rest add.
 *
 * <p>Errors are per partition: a partition's failure becomes its error code (KAFKA_STORAGE_ERROR
 * also takes its log directory offline; OFFSET_OUT_OF_RANGE keeps the offsets the client needs) and
 * makes the fetch answer at once, never waiting in the purgatory.
 *
 * <p>Thread-safety: stateless between calls; safe from any thread (request handlers, the purgatory
 * re-reading a waiting fetch). Reads take the partitions' read locks, never the logs' locks.
 */
final class LocalLogReader {

    /** Its log lines keep the category they had before it was split from {@link ReplicaManager}. */
    private static final Logger log = LoggerFactory.getLogger(ReplicaManager.class);

    private final HostedPartitions partitions;
    private final ReadReplicaSelection readReplicaSelection;
    private final StorageErrors storageErrors;
    private final Time time;

    private final ReplicationQuotaManager leaderQuota;

    LocalLogReader(HostedPartitions partitions, ReadReplicaSelection readReplicaSelection, StorageErrors storageErrors,
                   ReplicationQuotaManager leaderQuota, Time time) {
        this.leaderQuota = leaderQuota;
        this.partitions = partitions;
        this.readReplicaSelection = readReplicaSelection;
        this.storageErrors = storageErrors;
        this.time = time;
    }

    /** Reads {@code fetchInfos} (in request order) once; the results keep that order. */
    LogReadResults read(FetchParams params, LinkedHashMap<TopicPartition, FetchPartition> fetchInfos) {
        Map<TopicPartition, FetchPartitionResult> results = new LinkedHashMap<>();
        Map<TopicPartition, LogOffsetMetadata> offsets = new LinkedHashMap<>();
        FetchIsolation isolation = params.isFromFollower() ? FetchIsolation.LOG_END
            : params.isolationLevel() == IsolationLevel.READ_COMMITTED ? FetchIsolation.TXN_COMMITTED
            : FetchIsolation.HIGH_WATERMARK;
        int limitBytes = params.maxBytes();
        boolean minOneMessage = true;
        long bytesReadable = 0;
        boolean answerNow = false;
        List<TopicPartition> highWatermarkMoved = new ArrayList<>();
        for (Map.Entry<TopicPartition, FetchPartition> e : fetchInfos.entrySet()) {
            TopicPartition tp = e.getKey();
            FetchPartition request = e.getValue();
            try {
                Partition partition = partitions.onlineOrError(tp);
                int maxBytes = Math.min(request.maxBytes(), limitBytes);
                FetchDataInfo info;
                PartitionLog partitionLog = partition.log().orElseThrow(() -> new NotLeaderOrFollowerException("No log"));
                if (params.isFromFollower()) {
                    // KIP-73: a throttled replica out of the ISR gets no records while the leader's
                    // throttled traffic is above leader.replication.throttled.rate (its offsets still count).
                    boolean throttled = leaderThrottled(tp, partitionLog);
                    boolean held = throttled && !partition.isr().contains(params.replicaId())
                        && leaderQuota.isQuotaExceeded();
                    FollowerRead read = partition.readForFollower(request.fetchOffset(),
                        request.currentLeaderEpoch(), request.lastFetchedEpoch(), held ? 0 : maxBytes,
                        minOneMessage && !held);
                    if (read.divergingEpoch() != null) {
                        long hw = partitionLog.highWatermark();
                        results.put(tp, new FetchPartitionResult(Errors.NONE, hw, hw, partitionLog.logStartOffset(),
                            MemoryRecords.EMPTY, read.divergingEpoch().epoch(), read.divergingEpoch().startOffset()));
                        continue;
                    }
                    info = read.data();
                    if (throttled) {
                        leaderQuota.record(info.records().sizeInBytes());
                    }
                    if (partition.updateFollowerFetchState(params.replicaId(), info.fetchOffsetMetadata(), -1,
                            time.milliseconds(), read.leaderLogEndOffset())) {
                        highWatermarkMoved.add(tp);
                    }
                } else if (params.mayReadFromFollower() && !partition.isLeader()) {
                    info = partition.readAsFollower(request.fetchOffset(), request.currentLeaderEpoch(), maxBytes,
                        isolation, minOneMessage);
                } else {
                    int preferred = params.mayReadFromFollower()
                        ? readReplicaSelection.preferredReadReplica(partition, partitionLog, request.fetchOffset(),
                            params.clientMetadata()) : -1;
                    if (preferred >= 0) {
                        long hw = partitionLog.highWatermark();
                        results.put(tp, new FetchPartitionResult(Errors.NONE, hw, partitionLog.lastStableOffset(),
                            partitionLog.logStartOffset(), MemoryRecords.EMPTY, -1, -1, preferred));
                        answerNow = true;
                        continue;
                    }
                    info = partition.read(request.fetchOffset(), request.currentLeaderEpoch(), maxBytes, isolation,
                        minOneMessage);
                }
                int size = info.records().sizeInBytes();
                limitBytes = Math.max(0, limitBytes - size);
                if (size > 0) {
                    minOneMessage = false;
                }
                bytesReadable += size;
                long highWatermark = partitionLog.highWatermark();
                long lastStableOffset = partitionLog.lastStableOffset();
                List<FetchResponseData.AbortedTransaction> aborted = isolation == FetchIsolation.TXN_COMMITTED && size > 0
                    ? abortedTransactions(partitionLog, request.fetchOffset(), lastStableOffset) : List.of();
                results.put(tp, new FetchPartitionResult(Errors.NONE, highWatermark, lastStableOffset,
                    partitionLog.logStartOffset(), info.records(), -1, -1, -1, aborted));
                offsets.put(tp, info.fetchOffsetMetadata());
            } catch (KafkaStorageException ex) {
                log.error("Storage error reading {}", tp, ex);
                storageErrors.handle(tp, ex);
                results.put(tp, FetchPartitionResult.error(Errors.KAFKA_STORAGE_ERROR));
                answerNow = true;
            } catch (ApiException ex) {
                Errors error = Errors.forException(ex);
                results.put(tp, withOffsets(tp, error));
                answerNow = true;
            } catch (RuntimeException ex) {
                log.error("Unexpected error reading {}", tp, ex);
                results.put(tp, FetchPartitionResult.error(Errors.UNKNOWN_SERVER_ERROR));
                answerNow = true;
            }
        }
        return new LogReadResults(results, offsets, bytesReadable, answerNow, highWatermarkMoved);
    }

    /** Whether the topic throttles this leader's replica of {@code tp} ({@code leader.replication.throttled.replicas}). */
    private boolean leaderThrottled(TopicPartition tp, PartitionLog partitionLog) {
        return ThrottledReplicas.throttles(partitionLog.config().overrides().get(LogConfig.LEADER_THROTTLED_REPLICAS),
            tp.partition(), partitions.brokerId());
    }

    /**
     * Whether a follower's fetch of {@code tp} is held back by the leader's replication throttle
     * now (KIP-73): a delayed fetch does not count its bytes, so it waits out its time instead of
     * answering at once with nothing, as Kafka's DelayedFetch skips such partitions.
     */
    boolean heldByThrottle(FetchParams params, TopicPartition tp, Partition partition, PartitionLog partitionLog) {
        return params.isFromFollower() && leaderThrottled(tp, partitionLog)
            && !partition.isr().contains(params.replicaId()) && leaderQuota.isQuotaExceeded();
    }

    /** An error result that still tells the client the offsets it needs (e.g. for OFFSET_OUT_OF_RANGE). */
    private FetchPartitionResult withOffsets(TopicPartition tp, Errors error) {
        Partition partition = partitions.get(tp).orElse(null);
        if (error == Errors.OFFSET_OUT_OF_RANGE && partition != null && partition.log().isPresent()) {
            PartitionLog l = partition.log().get();
            return new FetchPartitionResult(error, l.highWatermark(), l.highWatermark(), l.logStartOffset(),
                MemoryRecords.EMPTY);
        }
        return FetchPartitionResult.error(error);
    }

    private static List<FetchResponseData.AbortedTransaction> abortedTransactions(PartitionLog partitionLog,
                                                                                 long fetchOffset, long upperBound) {
        List<AbortedTransaction> aborted = partitionLog.collectAbortedTransactions(fetchOffset, upperBound);
        List<FetchResponseData.AbortedTransaction> out = new ArrayList<>(aborted.size());
        for (AbortedTransaction txn : aborted) {
            out.add(new FetchResponseData.AbortedTransaction().setProducerId(txn.producerId())
                .setFirstOffset(txn.firstOffset()));
        }
        return out;
    }
}
