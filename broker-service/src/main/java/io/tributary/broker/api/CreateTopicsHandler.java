package io.tributary.broker.api;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.LeadersElected;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicConfigs;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * CreateTopics (v2-7): validates and writes each topic (or only validates, with
 * {@code validateOnly}), then waits up to the request's timeout for every partition to have a
 * leader, as Kafka does; topics not ready in time get REQUEST_TIMED_OUT (they are still
 * created). v5+ answers with the topic's configs; v7 with its id. A name given twice gets
 * INVALID_REQUEST.
 *
 * <p>Authorization as Kafka's {@code ControllerApis.createTopics}, validate-only too: CREATE on
 * the cluster allows every topic; otherwise each needs CREATE on the topic (else
 * TOPIC_AUTHORIZATION_FAILED, whether or not it exists). A created topic's partition count,
 * replication factor and configs are answered only with DESCRIBE_CONFIGS on it; without, v5+
 * answers TOPIC_AUTHORIZATION_FAILED in {@code topic_config_error_code} and the topic is still created.
 */
public final class CreateTopicsHandler extends VersionedHandler {

    private final AdminManager adminManager;
    private final MetadataCache metadataCache;
    private final ConfigDescriber configDescriber;
    private final BrokerAuthorizer authorizer;
    /** {@code controller_mutation_rate} (KIP-599). */
    private final ClientQuotaManager mutationQuota;

    CreateTopicsHandler(AdminManager adminManager, MetadataCache metadataCache, ConfigDescriber configDescriber,
                        BrokerAuthorizer authorizer, ClientQuotaManager mutationQuota) {
        super(ApiKeys.CREATE_TOPICS, 2, 7);
        this.mutationQuota = mutationQuota;
        this.adminManager = adminManager;
        this.metadataCache = metadataCache;
        this.configDescriber = configDescriber;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        CreateTopicsRequest request = (CreateTopicsRequest) r;
        boolean validateOnly = request.data().validateOnly();
        Map<String, Integer> counts = new HashMap<>();
        request.data().topics().forEach(t -> counts.merge(t.name(), 1, Integer::sum));
        boolean clusterCreate = !authorizer.filter(context, AclOperation.CREATE, ResourceType.CLUSTER,
            List.of(BrokerAuthorizer.CLUSTER_NAME)).isEmpty();
        Set<String> creatable = clusterCreate ? counts.keySet()
            : authorizer.filter(context, AclOperation.CREATE, ResourceType.TOPIC, counts.keySet());
        Set<String> describable = authorizer.filter(context, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC,
            counts.keySet());
        Map<String, CreatableTopicResult> results = new LinkedHashMap<>();
        Set<String> created = new HashSet<>();
        MutationQuotaCheck mutations = new MutationQuotaCheck(mutationQuota, context, 6);
        boolean counted = !validateOnly && mutations.applies();
        for (CreateTopicsRequestData.CreatableTopic topic : request.data().topics()) {
            if (counts.get(topic.name()) > 1) {
                results.put(topic.name(), failure(topic.name(), new ApiError(Errors.INVALID_REQUEST,
                    "Create topics request from client `" + context.clientId() + "` contains multiple entries for the "
                        + "following topics: " + topic.name())));
                continue;
            }
            if (!creatable.contains(topic.name())) {
                results.put(topic.name(), failure(topic.name(), new ApiError(Errors.TOPIC_AUTHORIZATION_FAILED,
                    "Authorization failed.")));
                continue;
            }
            Map<Integer, List<Integer>> assignment = new LinkedHashMap<>();
            topic.assignments().forEach(a -> assignment.put(a.partitionIndex(), new ArrayList<>(a.brokerIds())));
            Map<String, String> configs = new HashMap<>();
            topic.configs().forEach(c -> configs.put(c.name(), c.value()));
            AdminManager.TopicCreation creation = new AdminManager.TopicCreation(topic.name(),
                topic.numPartitions(), topic.replicationFactor(), assignment, configs);
            if (counted) {
                // KIP-599: a valid topic's partitions count against the quota before it is created.
                AdminManager.CreateTopicResult checked = adminManager.createTopic(creation, true);
                ApiError refused = checked.error().isFailure() ? checked.error()
                    : mutations.record(checked.assignment().partitionCount());
                if (refused != null) {
                    results.put(topic.name(), failure(topic.name(), refused));
                    continue;
                }
            }
            AdminManager.CreateTopicResult result = adminManager.createTopic(creation, validateOnly);
            if (result.error().isFailure()) {
                results.put(topic.name(), failure(topic.name(), result.error()));
                continue;
            }
            CreatableTopicResult ok = new CreatableTopicResult().setName(topic.name())
                .setTopicId(result.assignment().topicId())
                .setErrorCode(Errors.NONE.code());
            if (!describable.contains(topic.name())) {
                if (context.apiVersion() >= 5) {
                    ok.setTopicConfigErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                }
            } else {
                ok.setNumPartitions(result.assignment().partitionCount())
                    .setReplicationFactor((short) result.assignment().replicationFactor());
            }
            if (context.apiVersion() >= 5 && describable.contains(topic.name())) {
                configDescriber.topicConfigs(configs, null, false, false).forEach(c -> ok.configs().add(
                    new CreatableTopicConfigs().setName(c.name()).setValue(c.value()).setReadOnly(c.readOnly())
                        .setConfigSource(c.configSource()).setIsSensitive(c.isSensitive())));
            }
            results.put(topic.name(), ok);
            if (!validateOnly) {
                created.add(topic.name());
            }
        }
        CompletableFuture<Boolean> ready = created.isEmpty() || request.data().timeoutMs() <= 0
            ? CompletableFuture.completedFuture(true)
            : metadataCache.waitFor(new LeadersElected(metadataCache, List.copyOf(created)),
                request.data().timeoutMs());
        return ready.thenApply(allReady -> {
            CreateTopicsResponseData data = new CreateTopicsResponseData().setThrottleTimeMs(mutations.throttleMs());
            for (CreatableTopicResult result : results.values()) {
                if (!allReady && created.contains(result.name()) && !metadataCache.allPartitionsHaveLeaders(result.name())) {
                    result.setErrorCode(Errors.REQUEST_TIMED_OUT.code())
                        .setErrorMessage("Leaders were not elected for every partition within the timeout");
                }
                data.topics().add(result);
            }
            return mutations.respond(Responses.of(context, new CreateTopicsResponse(data)));
        });
    }

    private static CreatableTopicResult failure(String name, ApiError error) {
        return new CreatableTopicResult().setName(name).setErrorCode(error.error().code()).setErrorMessage(error.message())
            .setNumPartitions(-1).setReplicationFactor((short) -1).setConfigs(null);
    }
}
