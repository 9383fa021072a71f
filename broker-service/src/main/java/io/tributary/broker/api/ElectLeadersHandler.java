package io.tributary.broker.api;

import io.tributary.broker.cluster.Controller;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ElectLeadersResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ElectLeadersRequest;
import org.apache.kafka.common.requests.ElectLeadersResponse;

/**
 * ElectLeaders (v0-2, KIP-183 and KIP-460): preferred or unclean leader election, carried out by
 * the controller ({@code kafka-leader-election.sh}, {@code Admin.electLeaders}). A null partition
 * list means every partition. A broker that is not the controller answers NOT_CONTROLLER, and
 * the client finds the controller in its next metadata. Needs ALTER on the cluster: otherwise
 * CLUSTER_AUTHORIZATION_FAILED at the top level and for every partition named, as Kafka.
 */
public final class ElectLeadersHandler extends VersionedHandler {

    private final Controller controller;
    private final BrokerAuthorizer authorizer;

    public ElectLeadersHandler(Controller controller, BrokerAuthorizer authorizer) {
        super(ApiKeys.ELECT_LEADERS, 0, 2);
        this.controller = controller;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ElectLeadersRequest request = (ElectLeadersRequest) r;
        if (!authorizer.authorizeCluster(context, AclOperation.ALTER)) {
            return Responses.clusterAuthorizationFailed(context, request);
        }
        ElectionType type = context.apiVersion() == 0 ? ElectionType.PREFERRED : request.electionType();
        boolean all = request.data().topicPartitions() == null;
        if (all && type != ElectionType.PREFERRED) {
            return Responses.completed(context, new ElectLeadersResponse(0, Errors.INVALID_REQUEST.code(), List.of(),
                context.apiVersion()));
        }
        List<TopicPartition> partitions = all ? null : List.copyOf(request.topicPartitions());
        return controller.electLeaders(type, partitions).handle((results, error) -> {
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                return Responses.of(context, new ElectLeadersResponse(0, Errors.forException(cause).code(), List.of(),
                    context.apiVersion()));
            }
            Map<String, ElectLeadersResponseData.ReplicaElectionResult> byTopic = new LinkedHashMap<>();
            results.forEach((tp, result) -> byTopic.computeIfAbsent(tp.topic(),
                t -> new ElectLeadersResponseData.ReplicaElectionResult().setTopic(t)).partitionResult()
                .add(new ElectLeadersResponseData.PartitionResult().setPartitionId(tp.partition())
                    .setErrorCode(result.code()).setErrorMessage(result == Errors.NONE ? null : result.message())));
            return Responses.of(context, new ElectLeadersResponse(0, Errors.NONE.code(),
                List.copyOf(byTopic.values()), context.apiVersion()));
        });
    }
}
