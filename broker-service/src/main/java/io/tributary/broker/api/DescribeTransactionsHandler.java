package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.transaction.TransactionCoordinator;
import io.tributary.broker.transaction.TransactionMetadata;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeTransactionsRequest;
import org.apache.kafka.common.requests.DescribeTransactionsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeTransactions (v0, KIP-664; {@code kafka-transactions describe}): each id's state,
 * timeout, start time, producer id and epoch and partitions, from its coordinator. Needs DESCRIBE
 * on the id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED); NOT_COORDINATOR on a broker that does not
 * coordinate it, TRANSACTIONAL_ID_NOT_FOUND for an id the coordinator does not have.
 */
public final class DescribeTransactionsHandler extends VersionedHandler {

    private final TransactionCoordinator coordinator;
    private final BrokerAuthorizer authorizer;

    public DescribeTransactionsHandler(TransactionCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_TRANSACTIONS, 0, 0);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DescribeTransactionsResponseData data = new DescribeTransactionsResponseData().setThrottleTimeMs(0);
        for (String id : ((DescribeTransactionsRequest) r).data().transactionalIds()) {
            DescribeTransactionsResponseData.TransactionState out = new DescribeTransactionsResponseData.TransactionState()
                .setTransactionalId(id).setTransactionState("").setProducerId(-1).setProducerEpoch((short) -1)
                .setTransactionStartTimeMs(-1).setTransactionTimeoutMs(-1);
            if (!authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, id)) {
                data.transactionStates().add(out.setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code()));
                continue;
            }
            TransactionCoordinator.Described described = coordinator.describe(id);
            out.setErrorCode(described.error().code());
            TransactionMetadata m = described.metadata();
            if (m != null) {
                out.setTransactionState(m.state().stateName()).setTransactionTimeoutMs(m.transactionTimeoutMs())
                    .setTransactionStartTimeMs(m.transactionStartTimeMs()).setProducerId(m.producerId())
                    .setProducerEpoch(m.producerEpoch());
                Map<String, List<Integer>> byTopic = new TreeMap<>();
                for (TopicPartition tp : m.partitions()) {
                    byTopic.computeIfAbsent(tp.topic(), t -> new java.util.ArrayList<>()).add(tp.partition());
                }
                byTopic.forEach((topic, partitions) -> out.topics().add(new DescribeTransactionsResponseData.TopicData()
                    .setTopic(topic).setPartitions(partitions.stream().sorted().toList())));
            }
            data.transactionStates().add(out);
        }
        return Responses.completed(context, new DescribeTransactionsResponse(data));
    }
}
