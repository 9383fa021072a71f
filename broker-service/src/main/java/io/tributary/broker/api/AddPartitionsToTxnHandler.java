package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.transaction.TransactionCoordinator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AddPartitionsToTxnRequest;
import org.apache.kafka.common.requests.AddPartitionsToTxnResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * AddPartitionsToTxn (v0-5). v0-3 are a transactional producer's form (KIP-98): the partitions join the
 * producer's transaction at its coordinator. Needs WRITE on the transactional id
 * (TRANSACTIONAL_ID_AUTHORIZATION_FAILED for every partition otherwise) and on each topic: a
 * partition refused it gets TOPIC_AUTHORIZATION_FAILED, one that does not exist
 * UNKNOWN_TOPIC_OR_PARTITION, and the others OPERATION_NOT_ATTEMPTED, as in Kafka. The
 * coordinator's answer ({@link TransactionCoordinator#addPartitions}) applies to every partition.
 *
 * <p>v4-5 are the brokers' batched form (KIP-890 part 1): several transactions per request, each
 * either verified ({@code VerifyOnly}: {@link TransactionCoordinator#verifyPartitions}, sent by a
 * partition leader before it appends a transaction's first batch) or added. Only a broker may
 * send them: CLUSTER_ACTION on the cluster, else the top-level CLUSTER_AUTHORIZATION_FAILED. Topics
 * are not authorized again (the sender did); a partition that does not exist fails its transaction
 * as above. v5 adds TRANSACTION_ABORTABLE, which is what verification answers for a partition not
 * in the transaction; a v4 caller gets INVALID_TXN_STATE instead.
 *
 * <p>Runs on a request handler thread.
 */
public final class AddPartitionsToTxnHandler extends VersionedHandler {

    private final TransactionCoordinator coordinator;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public AddPartitionsToTxnHandler(TransactionCoordinator coordinator, MetadataCache metadataCache,
                                     BrokerAuthorizer authorizer) {
        super(ApiKeys.ADD_PARTITIONS_TO_TXN, 0, 5);
        this.coordinator = coordinator;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        AddPartitionsToTxnRequest request = (AddPartitionsToTxnRequest) r;
        if (context.apiVersion() >= 4) {
            return handleBrokerBatch(context, request);
        }
        String transactionalId = request.data().v3AndBelowTransactionalId();
        List<TopicPartition> partitions = AddPartitionsToTxnRequest.getPartitions(request.data().v3AndBelowTopics());
        if (!authorizer.authorize(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
            return respond(context, all(partitions, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
        }
        Set<String> writable = authorizer.filter(context, AclOperation.WRITE, ResourceType.TOPIC,
            partitions.stream().map(TopicPartition::topic).distinct().toList());
        Map<TopicPartition, Errors> refused = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            if (!writable.contains(tp.topic())) {
                refused.put(tp, Errors.TOPIC_AUTHORIZATION_FAILED);
            } else if (metadataCache.partitionState(tp).isEmpty()) {
                refused.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
            }
        }
        if (!refused.isEmpty()) {
            Map<TopicPartition, Errors> errors = all(partitions, Errors.OPERATION_NOT_ATTEMPTED);
            errors.putAll(refused);
            return respond(context, errors);
        }
        return coordinator.addPartitions(transactionalId, request.data().v3AndBelowProducerId(),
                request.data().v3AndBelowProducerEpoch(), new HashSet<>(partitions))
            .thenApply(error -> Responses.of(context, response(all(partitions, error))));
    }

    private CompletableFuture<Response> handleBrokerBatch(RequestContext context, AddPartitionsToTxnRequest request) {
        if (!authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION)) {
            return Responses.completed(context, request.getErrorResponse(0, Errors.CLUSTER_AUTHORIZATION_FAILED.exception()));
        }
        boolean abortableSupported = context.apiVersion() >= 5;
        List<CompletableFuture<AddPartitionsToTxnResponseData.AddPartitionsToTxnResult>> results = new java.util.ArrayList<>();
        for (AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction txn : request.data().transactions()) {
            List<TopicPartition> partitions = AddPartitionsToTxnRequest.getPartitions(txn.topics());
            Map<TopicPartition, Errors> unknown = new LinkedHashMap<>();
            partitions.stream().filter(tp -> metadataCache.partitionState(tp).isEmpty())
                .forEach(tp -> unknown.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION));
            CompletableFuture<Map<TopicPartition, Errors>> errors;
            if (!unknown.isEmpty()) {
                Map<TopicPartition, Errors> failed = all(partitions, Errors.OPERATION_NOT_ATTEMPTED);
                failed.putAll(unknown);
                errors = CompletableFuture.completedFuture(failed);
            } else if (txn.verifyOnly()) {
                errors = CompletableFuture.completedFuture(coordinator.verifyPartitions(txn.transactionalId(),
                    txn.producerId(), txn.producerEpoch(), partitions));
            } else {
                errors = coordinator.addPartitions(txn.transactionalId(), txn.producerId(), txn.producerEpoch(),
                    new HashSet<>(partitions)).thenApply(error -> all(partitions, error));
            }
            results.add(errors.thenApply(byPartition -> {
                Map<TopicPartition, Errors> answered = new LinkedHashMap<>();
                byPartition.forEach((tp, error) -> answered.put(tp,
                    error == Errors.TRANSACTION_ABORTABLE && !abortableSupported ? Errors.INVALID_TXN_STATE : error));
                return AddPartitionsToTxnResponse.resultForTransaction(txn.transactionalId(), answered);
            }));
        }
        return CompletableFuture.allOf(results.toArray(new CompletableFuture<?>[0])).thenApply(done -> {
            AddPartitionsToTxnResponseData.AddPartitionsToTxnResultCollection byTransaction =
                new AddPartitionsToTxnResponseData.AddPartitionsToTxnResultCollection();
            results.forEach(f -> byTransaction.add(f.join()));
            return Responses.of(context, new AddPartitionsToTxnResponse(new AddPartitionsToTxnResponseData()
                .setThrottleTimeMs(0).setErrorCode(Errors.NONE.code()).setResultsByTransaction(byTransaction)));
        });
    }

    private static Map<TopicPartition, Errors> all(List<TopicPartition> partitions, Errors error) {
        Map<TopicPartition, Errors> errors = new LinkedHashMap<>();
        partitions.forEach(tp -> errors.put(tp, error));
        return errors;
    }

    private static CompletableFuture<Response> respond(RequestContext context, Map<TopicPartition, Errors> errors) {
        return Responses.completed(context, response(errors));
    }

    private static AddPartitionsToTxnResponse response(Map<TopicPartition, Errors> errors) {
        AddPartitionsToTxnResponseData data = new AddPartitionsToTxnResponseData().setThrottleTimeMs(0)
            .setResultsByTopicV3AndBelow(AddPartitionsToTxnResponse.resultForTransaction(
                AddPartitionsToTxnResponse.V3_AND_BELOW_TXN_ID, errors).topicResults());
        return new AddPartitionsToTxnResponse(data);
    }
}
