package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ListPartitionReassignmentsRequest;
import org.apache.kafka.common.requests.ListPartitionReassignmentsResponse;

/**
 * ListPartitionReassignments (v0, KIP-455): the partitions being reassigned, each with its
 * replicas and the replicas being added and removed, from the metadata cache (so any broker
 * answers). Null topics means every topic; partitions not being reassigned are left out. Needs
 * DESCRIBE on the cluster: otherwise CLUSTER_AUTHORIZATION_FAILED, as Kafka.
 */
public final class ListPartitionReassignmentsHandler extends VersionedHandler {

    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public ListPartitionReassignmentsHandler(MetadataCache metadataCache, BrokerAuthorizer authorizer) {
        super(ApiKeys.LIST_PARTITION_REASSIGNMENTS, 0, 0);
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        if (!authorizer.authorizeCluster(context, AclOperation.DESCRIBE)) {
            return Responses.clusterAuthorizationFailed(context, r);
        }
        ListPartitionReassignmentsRequestData data = ((ListPartitionReassignmentsRequest) r).data();
        ListPartitionReassignmentsResponseData response = new ListPartitionReassignmentsResponseData().setThrottleTimeMs(0)
            .setErrorCode(Errors.NONE.code());
        List<String> topics = data.topics() == null ? metadataCache.topicNames().stream().sorted().toList()
            : data.topics().stream().map(ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics::name).toList();
        for (String name : topics) {
            TopicAssignment assignment = metadataCache.topic(name).orElse(null);
            if (assignment == null) {
                continue;
            }
            List<Integer> partitions = data.topics() == null ? new ArrayList<>(assignment.replicas().keySet())
                : data.topics().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow().partitionIndexes();
            ListPartitionReassignmentsResponseData.OngoingTopicReassignment ongoing =
                new ListPartitionReassignmentsResponseData.OngoingTopicReassignment().setName(name);
            for (int p : partitions) {
                if (assignment.isReassigning(p)) {
                    ongoing.partitions().add(new ListPartitionReassignmentsResponseData.OngoingPartitionReassignment()
                        .setPartitionIndex(p)
                        .setReplicas(assignment.replicas().get(p))
                        .setAddingReplicas(assignment.addingReplicas().getOrDefault(p, List.of()))
                        .setRemovingReplicas(assignment.removingReplicas().getOrDefault(p, List.of())));
                }
            }
            if (!ongoing.partitions().isEmpty()) {
                response.topics().add(ongoing);
            }
        }
        return Responses.completed(context, new ListPartitionReassignmentsResponse(response));
    }
}
