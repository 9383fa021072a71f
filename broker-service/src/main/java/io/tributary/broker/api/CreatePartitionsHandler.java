package io.tributary.broker.api;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.CreatePartitionsRequest;
import org.apache.kafka.common.requests.CreatePartitionsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * CreatePartitions (v0-3): raises a topic's partition count, with explicit or automatic
 * placement of the new replicas, and waits up to the timeout for their leaders. Errors:
 * UNKNOWN_TOPIC_OR_PARTITION, INVALID_PARTITIONS, INVALID_REPLICA_ASSIGNMENT, REQUEST_TIMED_OUT.
 * Each topic needs ALTER on it: otherwise TOPIC_AUTHORIZATION_FAILED, whether or not it exists,
 * as Kafka's {@code ControllerApis.createPartitions}.
 */
public final class CreatePartitionsHandler extends VersionedHandler {

    private final AdminManager adminManager;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;
    /** {@code controller_mutation_rate} (KIP-599). */
    private final ClientQuotaManager mutationQuota;

    public CreatePartitionsHandler(AdminManager adminManager, MetadataCache metadataCache, BrokerAuthorizer authorizer,
                                   ClientQuotaManager mutationQuota) {
        super(ApiKeys.CREATE_PARTITIONS, 0, 3);
        this.mutationQuota = mutationQuota;
        this.adminManager = adminManager;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    /** Whether the cluster's metadata shows the new partition count with a leader for every partition. */
    private boolean ready(String topic, int count) {
        return metadataCache.topic(topic).map(t -> t.partitionCount() >= count).orElse(false)
            && metadataCache.allPartitionsHaveLeaders(topic);
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        CreatePartitionsRequest request = (CreatePartitionsRequest) r;
        List<CreatePartitionsTopicResult> results = new ArrayList<>();
        Map<String, Integer> changed = new HashMap<>();
        Set<String> names = new HashSet<>();
        MutationQuotaCheck mutations = new MutationQuotaCheck(mutationQuota, context, 3);
        boolean counted = !request.data().validateOnly() && mutations.applies();
        Set<String> alterable = authorizer.filter(context, AclOperation.ALTER, ResourceType.TOPIC,
            request.data().topics().stream().map(CreatePartitionsRequestData.CreatePartitionsTopic::name).toList());
        for (CreatePartitionsRequestData.CreatePartitionsTopic topic : request.data().topics()) {
            ApiError error;
            if (!names.add(topic.name())) {
                error = new ApiError(Errors.INVALID_REQUEST, "Duplicate topic in request.");
            } else if (!alterable.contains(topic.name())) {
                error = new ApiError(Errors.TOPIC_AUTHORIZATION_FAILED, null);
            } else {
                List<List<Integer>> assignment = null;
                if (topic.assignments() != null) {
                    assignment = new ArrayList<>();
                    for (CreatePartitionsRequestData.CreatePartitionsAssignment a : topic.assignments()) {
                        assignment.add(new ArrayList<>(a.brokerIds()));
                    }
                }
                error = null;
                if (counted) {
                    // KIP-599: the new partitions count against the quota before they are created.
                    ApiError checked = adminManager.createPartitions(topic.name(), topic.count(), assignment, true);
                    int current = metadataCache.topic(topic.name()).map(t -> t.partitionCount()).orElse(topic.count());
                    error = checked.isFailure() ? checked : mutations.record(Math.max(0, topic.count() - current));
                }
                if (error == null) {
                    error = adminManager.createPartitions(topic.name(), topic.count(), assignment,
                        request.data().validateOnly());
                }
                if (error.isSuccess() && !request.data().validateOnly()) {
                    changed.put(topic.name(), topic.count());
                }
            }
            results.add(new CreatePartitionsTopicResult().setName(topic.name()).setErrorCode(error.error().code())
                .setErrorMessage(error.message()));
        }
        CompletableFuture<Boolean> ready = changed.isEmpty() || request.data().timeoutMs() <= 0
            ? CompletableFuture.completedFuture(true)
            : metadataCache.waitFor(() -> changed.entrySet().stream().allMatch(e -> ready(e.getKey(), e.getValue())),
                request.data().timeoutMs());
        return ready.thenApply(allReady -> {
            CreatePartitionsResponseData data = new CreatePartitionsResponseData().setThrottleTimeMs(mutations.throttleMs());
            for (CreatePartitionsTopicResult result : results) {
                if (!allReady && changed.containsKey(result.name()) && !ready(result.name(), changed.get(result.name()))) {
                    result.setErrorCode(Errors.REQUEST_TIMED_OUT.code())
                        .setErrorMessage("Leaders of the new partitions were not elected in time");
                }
                data.results().add(result);
            }
            return mutations.respond(Responses.of(context, new CreatePartitionsResponse(data)));
        });
    }
}
