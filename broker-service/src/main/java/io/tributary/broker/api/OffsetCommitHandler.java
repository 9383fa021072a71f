package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.OffsetCommitRequest;
import org.apache.kafka.common.requests.OffsetCommitResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * OffsetCommit (served v2-10, advertised from v0 for old librdkafka; v0-1 get
 * UNSUPPORTED_VERSION): commits each partition's offset for the group, stored in
 * {@code __consumer_offsets}, answering when written. v10 names topics by id (KIP-848);
 * unknown topics or partitions get UNKNOWN_TOPIC_OR_PARTITION (UNKNOWN_TOPIC_ID by id). The
 * {@code retention_time_ms} of v2-4 gives the offsets their own expiry; v9+ answers
 * GROUP_ID_NOT_FOUND for a generation-based commit to an unknown group.
 */
public final class OffsetCommitHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;
    private final MetadataCache metadataCache;

    public OffsetCommitHandler(GroupCoordinator coordinator, MetadataCache metadataCache, BrokerAuthorizer authorizer) {
        super(ApiKeys.OFFSET_COMMIT, 2, 10);
        this.coordinator = coordinator;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public short advertisedMinVersion() {
        return 0;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        OffsetCommitRequestData data = ((OffsetCommitRequest) r).data();
        boolean byId = context.apiVersion() >= 10;
        // READ on the group (else every partition GROUP_AUTHORIZATION_FAILED), then READ on each topic.
        if (!authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, data.groupId())) {
            return Responses.completed(context, r.getErrorResponse(0, Errors.GROUP_AUTHORIZATION_FAILED.exception()));
        }
        java.util.Set<String> readable = authorizer.filter(context, AclOperation.READ, ResourceType.TOPIC,
            data.topics().stream().map(t -> byId ? metadataCache.topicName(t.topicId()).orElse(null) : t.name())
                .filter(java.util.Objects::nonNull).toList());
        Map<TopicPartition, GroupCoordinator.CommitRequest> commits = new LinkedHashMap<>();
        Map<TopicPartition, Errors> failed = new LinkedHashMap<>();
        Map<OffsetCommitRequestData.OffsetCommitRequestTopic, String> names = new LinkedHashMap<>();
        for (OffsetCommitRequestData.OffsetCommitRequestTopic topic : data.topics()) {
            String name = byId ? metadataCache.topicName(topic.topicId()).orElse(null) : topic.name();
            names.put(topic, name);
            Optional<TopicAssignment> assignment = name == null ? Optional.empty() : metadataCache.topic(name);
            for (OffsetCommitRequestData.OffsetCommitRequestPartition p : topic.partitions()) {
                TopicPartition tp = new TopicPartition(name == null ? "" : name, p.partitionIndex());
                if (name == null) {
                    failed.put(tp, Errors.UNKNOWN_TOPIC_ID);
                } else if (!readable.contains(name)) {
                    failed.put(tp, Errors.TOPIC_AUTHORIZATION_FAILED);
                } else if (assignment.isEmpty() || !assignment.get().replicas().containsKey(p.partitionIndex())) {
                    failed.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                } else {
                    commits.put(tp, new GroupCoordinator.CommitRequest(p.committedOffset(), p.committedLeaderEpoch(),
                        p.committedMetadata()));
                }
            }
        }
        // retention_time_ms exists in v2-4 only (-1: the broker's retention).
        long retentionTimeMs = context.apiVersion() <= 4 ? data.retentionTimeMs() : -1;
        return coordinator.commitOffsets(new GroupCoordinator.OffsetCommit(data.groupId(), data.generationIdOrMemberEpoch(),
            data.memberId(), data.groupInstanceId(), retentionTimeMs, context.apiVersion(), commits)).thenApply(results -> {
                OffsetCommitResponseData response = new OffsetCommitResponseData().setThrottleTimeMs(0);
                for (OffsetCommitRequestData.OffsetCommitRequestTopic topic : data.topics()) {
                    String name = names.get(topic);
                    OffsetCommitResponseData.OffsetCommitResponseTopic out = new OffsetCommitResponseData.OffsetCommitResponseTopic()
                        .setName(topic.name()).setTopicId(topic.topicId());
                    for (OffsetCommitRequestData.OffsetCommitRequestPartition p : topic.partitions()) {
                        TopicPartition tp = new TopicPartition(name == null ? "" : name, p.partitionIndex());
                        Errors error = failed.containsKey(tp) ? failed.get(tp) : results.getOrDefault(tp, Errors.UNKNOWN_SERVER_ERROR);
                        out.partitions().add(new OffsetCommitResponseData.OffsetCommitResponsePartition()
                            .setPartitionIndex(p.partitionIndex()).setErrorCode(error.code()));
                    }
                    response.topics().add(out);
                }
                return Responses.of(context, new OffsetCommitResponse(response));
            });
    }
}
