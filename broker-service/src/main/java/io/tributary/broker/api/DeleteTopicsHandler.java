package io.tributary.broker.api;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsResponseData.DeletableTopicResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.DeleteTopicsRequest;
import org.apache.kafka.common.requests.DeleteTopicsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DeleteTopics (v1-6; v6 by name or topic id): marks each topic for deletion, which the
 * controller carries out, and waits up to the request's timeout until the topics are gone
 * from the cluster's metadata (REQUEST_TIMED_OUT otherwise; the deletion still completes).
 * Errors: UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_ID, TOPIC_DELETION_DISABLED.
 *
 * <p>Authorization as Kafka's {@code ControllerApis.deleteTopics}: DELETE on the cluster allows
 * every topic; otherwise each needs DELETE on the topic. A name the principal may not DESCRIBE gets
 * TOPIC_AUTHORIZATION_FAILED whether or not it exists (so existence does not leak); a describable
 * one that does not exist UNKNOWN_TOPIC_OR_PARTITION; an existing one without DELETE
 * TOPIC_AUTHORIZATION_FAILED. An unknown id gets UNKNOWN_TOPIC_ID; a known one without DELETE
 * TOPIC_AUTHORIZATION_FAILED, with the name only when the principal may DESCRIBE the topic.
 */
public final class DeleteTopicsHandler extends VersionedHandler {

    private final AdminManager adminManager;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;
    /** {@code controller_mutation_rate} (KIP-599). */
    private final ClientQuotaManager mutationQuota;

    public DeleteTopicsHandler(AdminManager adminManager, MetadataCache metadataCache, BrokerAuthorizer authorizer,
                               ClientQuotaManager mutationQuota) {
        super(ApiKeys.DELETE_TOPICS, 1, 6);
        this.mutationQuota = mutationQuota;
        this.adminManager = adminManager;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    /** Gone from the metadata, deletion marker included, so the name can be used again. */
    private boolean deleted(String topic) {
        return metadataCache.topic(topic).isEmpty() && !metadataCache.isPendingDeletion(topic);
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DeleteTopicsRequest request = (DeleteTopicsRequest) r;
        List<DeletableTopicResult> results = new ArrayList<>();
        Set<String> deleting = new HashSet<>();
        List<DeleteTopicsRequestData.DeleteTopicState> topics = new ArrayList<>();
        if (context.apiVersion() >= 6) {
            topics.addAll(request.data().topics());
        } else {
            request.data().topicNames().forEach(n -> topics.add(new DeleteTopicsRequestData.DeleteTopicState().setName(n)
                .setTopicId(Uuid.ZERO_UUID)));
        }
        MutationQuotaCheck mutations = new MutationQuotaCheck(mutationQuota, context, 5);
        boolean counted = mutations.applies();
        Set<String> named = new LinkedHashSet<>();
        for (DeleteTopicsRequestData.DeleteTopicState topic : topics) {
            if (topic.name() != null) {
                named.add(topic.name());
            } else {
                metadataCache.topicName(topic.topicId()).ifPresent(named::add);
            }
        }
        boolean clusterDelete = !authorizer.filter(context, AclOperation.DELETE, ResourceType.CLUSTER,
            List.of(BrokerAuthorizer.CLUSTER_NAME)).isEmpty();
        Set<String> describable = clusterDelete ? named
            : authorizer.filter(context, AclOperation.DESCRIBE, ResourceType.TOPIC, named);
        Set<String> deletable = clusterDelete ? named
            : authorizer.filter(context, AclOperation.DELETE, ResourceType.TOPIC, named);
        for (DeleteTopicsRequestData.DeleteTopicState topic : topics) {
            DeletableTopicResult result = new DeletableTopicResult().setName(topic.name()).setTopicId(topic.topicId());
            String name = topic.name();
            if (name == null) {
                Optional<String> byId = metadataCache.topicName(topic.topicId());
                if (byId.isEmpty()) {
                    results.add(result.setErrorCode(Errors.UNKNOWN_TOPIC_ID.code())
                        .setErrorMessage("Topic id " + topic.topicId() + " does not exist"));
                    continue;
                }
                name = byId.get();
                if (!deletable.contains(name)) {
                    results.add(result.setName(describable.contains(name) ? name : null)
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                        .setErrorMessage(Errors.TOPIC_AUTHORIZATION_FAILED.message()));
                    continue;
                }
                result.setName(name);
            } else if (!describable.contains(name)
                || !deletable.contains(name) && metadataCache.topic(name).isPresent()) {
                results.add(result.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                    .setErrorMessage(Errors.TOPIC_AUTHORIZATION_FAILED.message()));
                continue;
            } else if (!deletable.contains(name)) {
                results.add(result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                    .setErrorMessage("Topic '" + name + "' does not exist."));
                continue;
            } else {
                metadataCache.topic(name).map(TopicAssignment::topicId).ifPresent(result::setTopicId);
            }
            // KIP-599: the topic's partitions count against the quota before it is deleted.
            ApiError refused = counted && metadataCache.topic(name).isPresent()
                ? mutations.record(metadataCache.topic(name).get().partitionCount()) : null;
            ApiError error = refused != null ? refused : adminManager.deleteTopic(name);
            result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            if (error.isSuccess()) {
                deleting.add(name);
            }
            results.add(result);
        }
        CompletableFuture<Boolean> done = deleting.isEmpty() || request.data().timeoutMs() <= 0
            ? CompletableFuture.completedFuture(true)
            : metadataCache.waitFor(() -> deleting.stream().allMatch(this::deleted), request.data().timeoutMs());
        return done.thenApply(allDone -> {
            DeleteTopicsResponseData data = new DeleteTopicsResponseData().setThrottleTimeMs(mutations.throttleMs());
            for (DeletableTopicResult result : results) {
                if (!allDone && deleting.contains(result.name()) && !deleted(result.name())) {
                    result.setErrorCode(Errors.REQUEST_TIMED_OUT.code()).setErrorMessage("The deletion did not finish in time");
                }
                data.responses().add(result);
            }
            return mutations.respond(Responses.of(context, new DeleteTopicsResponse(data)));
        });
    }
}
