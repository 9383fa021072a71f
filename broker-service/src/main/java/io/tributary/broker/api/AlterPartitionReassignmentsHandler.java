package io.tributary.broker.api;

import io.tributary.broker.cluster.Controller;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AlterPartitionReassignmentsRequest;
import org.apache.kafka.common.requests.AlterPartitionReassignmentsResponse;

/**
 * AlterPartitionReassignments (v0-1, KIP-455; v1 adds {@code AllowReplicationFactorChange},
 * KIP-860): starts moving partitions to new replicas, or cancels a move when the replicas are
 * null ({@code kafka-reassign-partitions.sh --execute / --cancel}). Served by the controller;
 * other brokers answer NOT_CONTROLLER. Needs ALTER on the cluster: otherwise
 * CLUSTER_AUTHORIZATION_FAILED at the top level and for every partition named, as Kafka.
 */
public final class AlterPartitionReassignmentsHandler extends VersionedHandler {

    private final Controller controller;
    private final BrokerAuthorizer authorizer;

    public AlterPartitionReassignmentsHandler(Controller controller, BrokerAuthorizer authorizer) {
        super(ApiKeys.ALTER_PARTITION_REASSIGNMENTS, 0, 1);
        this.controller = controller;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        if (!authorizer.authorizeCluster(context, AclOperation.ALTER)) {
            return Responses.clusterAuthorizationFailed(context, r);
        }
        AlterPartitionReassignmentsRequestData data = ((AlterPartitionReassignmentsRequest) r).data();
        Map<TopicPartition, Optional<List<Integer>>> targets = new LinkedHashMap<>();
        for (AlterPartitionReassignmentsRequestData.ReassignableTopic topic : data.topics()) {
            for (AlterPartitionReassignmentsRequestData.ReassignablePartition p : topic.partitions()) {
                targets.put(new TopicPartition(topic.name(), p.partitionIndex()), Optional.ofNullable(p.replicas()));
            }
        }
        boolean allowRfChange = context.apiVersion() == 0 || data.allowReplicationFactorChange();
        return controller.alterPartitionReassignments(targets, allowRfChange).handle((results, error) -> {
            AlterPartitionReassignmentsResponseData response = new AlterPartitionReassignmentsResponseData()
                .setThrottleTimeMs(0).setAllowReplicationFactorChange(allowRfChange);
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                Errors e = Errors.forException(cause);
                return Responses.of(context, new AlterPartitionReassignmentsResponse(response.setErrorCode(e.code())
                    .setErrorMessage(cause.getMessage())));
            }
            Map<String, AlterPartitionReassignmentsResponseData.ReassignableTopicResponse> byTopic = new LinkedHashMap<>();
            results.forEach((tp, result) -> byTopic.computeIfAbsent(tp.topic(), t -> {
                var topicResponse = new AlterPartitionReassignmentsResponseData.ReassignableTopicResponse().setName(t);
                response.responses().add(topicResponse);
                return topicResponse;
            }).partitions().add(new AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse()
                .setPartitionIndex(tp.partition()).setErrorCode(result.error().code())
                .setErrorMessage(result.error() == Errors.NONE ? null : result.messageWithFallback())));
            return Responses.of(context, new AlterPartitionReassignmentsResponse(response.setErrorCode(Errors.NONE.code())));
        });
    }
}
