package io.tributary.broker.api;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsResponseData.DeletableTopicResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.DeleteTopicsRequest;
import org.apache.kafka.common.requests.DeleteTopicsResponse;

/**
 * DeleteTopics (v1-6; v6 by name or topic id): marks each topic for deletion, which the
 * controller carries out, and waits up to the request's timeout until the topics are gone
 * from the cluster's metadata (REQUEST_TIMED_OUT otherwise; the deletion still completes).
 * Errors: UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_ID, TOPIC_DELETION_DISABLED.
 */
public final class DeleteTopicsHandler extends VersionedHandler {

    private final AdminManager adminManager;
    private final MetadataCache metadataCache;

    public DeleteTopicsHandler(AdminManager adminManager, MetadataCache metadataCache) {
        super(ApiKeys.DELETE_TOPICS, 1, 6);
        this.adminManager = adminManager;
        this.metadataCache = metadataCache;
    }

    /** Gone from the metadata, deletion marker included, so the name can be used again. */
    private boolean deleted(String topic) {
        return metadataCache.topic(topic).isEmpty() && !metadataCache.isPendingDeletion(topic);
    }

    @Override
    public boolean blocking() {
        return true;
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
                result.setName(name);
            } else {
                metadataCache.topic(name).map(TopicAssignment::topicId).ifPresent(result::setTopicId);
            }
            ApiError error = adminManager.deleteTopic(name);
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
            DeleteTopicsResponseData data = new DeleteTopicsResponseData().setThrottleTimeMs(0);
            for (DeletableTopicResult result : results) {
                if (!allDone && deleting.contains(result.name()) && !deleted(result.name())) {
                    result.setErrorCode(Errors.REQUEST_TIMED_OUT.code()).setErrorMessage("The deletion did not finish in time");
                }
                data.responses().add(result);
            }
            return Responses.of(context, new DeleteTopicsResponse(data));
        });
    }
}
