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
 * list means every partition. A broker that is not the controller forwards the request to the
 * controller ({@link ControllerForwarder}) as Kafka 4's brokers do, and answers NOT_CONTROLLER
 * only when there is no controller to reach or the request was forwarded already. Needs ALTER on
 * the cluster: otherwise CLUSTER_AUTHORIZATION_FAILED at the top level and for every partition
 * named, as Kafka.
 */
public final class ElectLeadersHandler extends VersionedHandler {

    private final Controller controller;
    private final ControllerForwarder forwarder;
    private final BrokerAuthorizer authorizer;

    public ElectLeadersHandler(Controller controller, ControllerForwarder forwarder, BrokerAuthorizer authorizer) {
        super(ApiKeys.ELECT_LEADERS, 0, 2);
        this.controller = controller;
        this.forwarder = forwarder;
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
        if (!controller.isActive()) {
            var forwarded = forwarder.forward(context,
                new ElectLeadersRequest.Builder(type, partitions, request.data().timeoutMs()));
            if (forwarded.isPresent()) {
                return forwarded.get().handle((response, error) -> Responses.of(context, error == null
                    ? new ElectLeadersResponse(((ElectLeadersResponse) response).data().setThrottleTimeMs(0))
                    : new ElectLeadersResponse(0, Errors.NOT_CONTROLLER.code(), List.of(), context.apiVersion())));
            }
        }
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
