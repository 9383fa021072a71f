package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;
import org.apache.kafka.common.utils.Time;

/**
 * WriteTxnMarkers (v1-2, KIP-98): a transaction coordinator asks this broker, as the leader of
 * the partitions named, to write a COMMIT or ABORT marker for a producer. Each marker is appended
 * with acks=all as the coordinator's ({@code AppendOrigin.COORDINATOR}, internal topics included),
 * and the answer, per producer and partition, comes once the ISR has it: NONE;
 * TRANSACTION_COORDINATOR_FENCED when an older coordinator epoch writes; NOT_LEADER_OR_FOLLOWER
 * or UNKNOWN_TOPIC_OR_PARTITION, on which the coordinator looks the leader up again; the
 * append's error otherwise. A marker written to an offsets partition completes the producer's
 * transactional offset commits there ({@link GroupCoordinator#onTransactionCompleted}). Only a
 * broker may send it: CLUSTER_ACTION on the cluster, else
 * CLUSTER_AUTHORIZATION_FAILED for every partition.
 *
 * <p>Runs on a request handler thread: an append may wait on the log's lock.
 */
public final class WriteTxnMarkersHandler extends VersionedHandler {

    private final ReplicaManager replicaManager;
    private final MetadataCache metadataCache;
    private final GroupCoordinator groupCoordinator;
    private final BrokerAuthorizer authorizer;
    private final long timeoutMs;
    private final Time time;

    /**
     * @param timeoutMs how long a marker waits for its ISR, ms (Kafka's {@code request.timeout.ms}
     *                  of the coordinator's request)
     */
    public WriteTxnMarkersHandler(ReplicaManager replicaManager, MetadataCache metadataCache,
                                  GroupCoordinator groupCoordinator, BrokerAuthorizer authorizer, long timeoutMs, Time time) {
        super(ApiKeys.WRITE_TXN_MARKERS, 1, 2);
        this.replicaManager = replicaManager;
        this.metadataCache = metadataCache;
        this.groupCoordinator = groupCoordinator;
        this.authorizer = authorizer;
        this.timeoutMs = timeoutMs;
        this.time = time;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        WriteTxnMarkersRequest request = (WriteTxnMarkersRequest) r;
        boolean authorized = authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION);
        List<CompletableFuture<WriteTxnMarkersResponseData.WritableTxnMarkerResult>> results = new ArrayList<>();
        for (WriteTxnMarkersRequestData.WritableTxnMarker marker : request.data().markers()) {
            results.add(authorized ? write(marker)
                : CompletableFuture.completedFuture(result(marker, Errors.CLUSTER_AUTHORIZATION_FAILED, Map.of())));
        }
        return CompletableFuture.allOf(results.toArray(new CompletableFuture<?>[0])).thenApply(done -> {
            WriteTxnMarkersResponseData data = new WriteTxnMarkersResponseData();
            results.forEach(f -> data.markers().add(f.join()));
            return Responses.of(context, new WriteTxnMarkersResponse(data));
        });
    }

    private CompletableFuture<WriteTxnMarkersResponseData.WritableTxnMarkerResult> write(
            WriteTxnMarkersRequestData.WritableTxnMarker marker) {
        ControlRecordType type = marker.transactionResult() ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
        Map<TopicPartition, MemoryRecords> toAppend = new LinkedHashMap<>();
        Map<TopicPartition, Errors> refused = new LinkedHashMap<>();
        for (WriteTxnMarkersRequestData.WritableTxnMarkerTopic topic : marker.topics()) {
            for (int partition : topic.partitionIndexes()) {
                TopicPartition tp = new TopicPartition(topic.name(), partition);
                if (metadataCache.partitionState(tp).isEmpty()) {
                    refused.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                } else {
                    toAppend.put(tp, MemoryRecords.withEndTransactionMarker(time.milliseconds(), marker.producerId(),
                        marker.producerEpoch(), new EndTransactionMarker(type, marker.coordinatorEpoch())));
                }
            }
        }
        if (toAppend.isEmpty()) {
            return CompletableFuture.completedFuture(result(marker, Errors.NONE, refused));
        }
        return replicaManager.appendTransactionMarkers(timeoutMs, toAppend).thenApply(appended -> {
            Map<TopicPartition, Errors> errors = new LinkedHashMap<>(refused);
            appended.forEach((tp, produce) -> errors.put(tp, produce.error()));
            groupCoordinator.onTransactionCompleted(marker.producerId(), appended.entrySet().stream()
                .filter(e -> e.getValue().error() == Errors.NONE).map(Map.Entry::getKey).toList(),
                marker.transactionResult());
            return result(marker, Errors.NONE, errors);
        });
    }

    /** The marker's answer: {@code allError} for every partition, or each partition's own. */
    private static WriteTxnMarkersResponseData.WritableTxnMarkerResult result(
            WriteTxnMarkersRequestData.WritableTxnMarker marker, Errors allError, Map<TopicPartition, Errors> errors) {
        WriteTxnMarkersResponseData.WritableTxnMarkerResult result =
            new WriteTxnMarkersResponseData.WritableTxnMarkerResult().setProducerId(marker.producerId());
        for (WriteTxnMarkersRequestData.WritableTxnMarkerTopic topic : marker.topics()) {
            WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult topicResult =
                new WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult().setName(topic.name());
            for (int partition : topic.partitionIndexes()) {
                Errors error = allError != Errors.NONE ? allError
                    : errors.getOrDefault(new TopicPartition(topic.name(), partition), Errors.UNKNOWN_SERVER_ERROR);
                topicResult.partitions().add(new WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult()
                    .setPartitionIndex(partition).setErrorCode(error.code()));
            }
            result.topics().add(topicResult);
        }
        return result;
    }
}
