package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.producer.ActiveProducer;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeProducersRequest;
import org.apache.kafka.common.requests.DescribeProducersResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeProducers (v0, KIP-664; {@code kafka-transactions describe-producers}, {@code
 * find-hanging} and {@code abort}): per partition, the producers with state on this broker's
 * replica, leader or follower, with their epoch, last sequence, last append time, coordinator
 * epoch and the first offset of their open transaction (-1 when none).
 *
 * <p>Errors per partition, as in Kafka: INVALID_TOPIC_EXCEPTION for a name that cannot be a
 * topic, TOPIC_AUTHORIZATION_FAILED without READ on the topic, UNKNOWN_TOPIC_OR_PARTITION,
 * NOT_LEADER_OR_FOLLOWER when this broker has no replica, KAFKA_STORAGE_ERROR when its log
 * directory is offline.
 */
public final class DescribeProducersHandler extends VersionedHandler {

    private final ReplicaManager replicaManager;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public DescribeProducersHandler(ReplicaManager replicaManager, MetadataCache metadataCache,
                                    BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_PRODUCERS, 0, 0);
        this.replicaManager = replicaManager;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DescribeProducersResponseData data = new DescribeProducersResponseData().setThrottleTimeMs(0);
        for (DescribeProducersRequestData.TopicRequest topic : ((DescribeProducersRequest) r).data().topics()) {
            DescribeProducersResponseData.TopicResponse out = new DescribeProducersResponseData.TopicResponse()
                .setName(topic.name());
            ApiException topicError = topicError(context, topic.name());
            for (int partition : topic.partitionIndexes()) {
                out.partitions().add(topicError != null ? error(partition, topicError)
                    : describe(new TopicPartition(topic.name(), partition)));
            }
            data.topics().add(out);
        }
        return Responses.completed(context, new DescribeProducersResponse(data));
    }

    private ApiException topicError(RequestContext context, String topic) {
        try {
            Topic.validate(topic);
        } catch (ApiException e) {
            return e;
        }
        if (!authorizer.authorize(context, AclOperation.READ, ResourceType.TOPIC, topic)) {
            return Errors.TOPIC_AUTHORIZATION_FAILED.exception();
        }
        return metadataCache.topic(topic).isEmpty() ? Errors.UNKNOWN_TOPIC_OR_PARTITION.exception() : null;
    }

    private DescribeProducersResponseData.PartitionResponse describe(TopicPartition tp) {
        try {
            DescribeProducersResponseData.PartitionResponse out = new DescribeProducersResponseData.PartitionResponse()
                .setPartitionIndex(tp.partition()).setErrorCode(Errors.NONE.code());
            for (ActiveProducer p : replicaManager.activeProducers(tp)) {
                out.activeProducers().add(new DescribeProducersResponseData.ProducerState()
                    .setProducerId(p.producerId()).setProducerEpoch(p.producerEpoch())
                    .setLastSequence(p.lastSequence()).setLastTimestamp(p.lastTimestamp())
                    .setCoordinatorEpoch(p.coordinatorEpoch()).setCurrentTxnStartOffset(p.currentTxnStartOffset()));
            }
            return out;
        } catch (ApiException e) {
            return error(tp.partition(), e);
        }
    }

    private static DescribeProducersResponseData.PartitionResponse error(int partition, ApiException e) {
        Errors error = Errors.forException(e);
        return new DescribeProducersResponseData.PartitionResponse().setPartitionIndex(partition)
            .setErrorCode(error.code()).setErrorMessage(e.getMessage() == null || e.getMessage().equals(error.message())
                ? null : e.getMessage());
    }
}
