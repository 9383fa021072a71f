package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.group.OffsetAndMetadata;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.OffsetFetchRequest;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * OffsetFetch (served v1-10, advertised from v0; v0 gets UNSUPPORTED_VERSION): committed offsets
 * of one group (v1-7) or several (v8+, KIP-709), for the partitions asked or, with no topics
 * (v2+), every committed one. A partition without a commit answers offset -1. v10 names topics
 * by id. With {@code requireStable} (KIP-447, read_committed consumers), a partition whose offset an
 * open transaction has committed but not yet ended answers UNSTABLE_OFFSET_COMMIT, and the client
 * retries.
 */
public final class OffsetFetchHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;
    private final MetadataCache metadataCache;

    public OffsetFetchHandler(GroupCoordinator coordinator, MetadataCache metadataCache, BrokerAuthorizer authorizer) {
        super(ApiKeys.OFFSET_FETCH, 1, 10);
        this.coordinator = coordinator;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    /**
     * {@link #fetchGroup} as the principal may see it (Kafka's checks): DESCRIBE on the group, else
     * GROUP_AUTHORIZATION_FAILED; of the topics, those it may not DESCRIBE are left out of an
     * all-offsets answer and answered TOPIC_AUTHORIZATION_FAILED when named.
     */
    private OffsetFetchResponseData.OffsetFetchResponseGroup authorizedFetch(RequestContext context, String groupId,
                                                                               List<Requested> requested, boolean byId,
                                                                               boolean requireStable) {
        return authorizedFetch(context, groupId, requested, byId, requireStable, null, -1);
    }

    /**
     * @param memberId    the member asking (OffsetFetch v9+, KIP-848), or null
     * @param memberEpoch its member epoch, or -1
     */
    private OffsetFetchResponseData.OffsetFetchResponseGroup authorizedFetch(RequestContext context, String groupId,
                                                                               List<Requested> requested, boolean byId,
                                                                               boolean requireStable, String memberId,
                                                                               int memberEpoch) {
        if (!authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
            return new OffsetFetchResponseData.OffsetFetchResponseGroup().setGroupId(groupId)
                .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code());
        }
        Errors memberError = coordinator.validateOffsetFetch(groupId, memberId, memberEpoch);
        if (memberError != Errors.NONE) {
            return new OffsetFetchResponseData.OffsetFetchResponseGroup().setGroupId(groupId)
                .setErrorCode(memberError.code());
        }
        OffsetFetchResponseData.OffsetFetchResponseGroup group = fetchGroup(groupId, requested, byId, requireStable);
        if (!authorizer.enabled()) {
            return group;
        }
        // v10 names topics by id only: authorize the name the id stands for (an unknown id is already
        // answered UNKNOWN_TOPIC_ID and needs no check).
        java.util.function.Function<OffsetFetchResponseData.OffsetFetchResponseTopics, String> nameOf = t -> byId
            ? metadataCache.topicName(t.topicId()).orElse(null) : t.name();
        java.util.Set<String> describable = authorizer.filter(context, AclOperation.DESCRIBE, ResourceType.TOPIC,
            group.topics().stream().map(nameOf).filter(java.util.Objects::nonNull).toList());
        if (requested == null) {
            group.topics().removeIf(t -> nameOf.apply(t) != null && !describable.contains(nameOf.apply(t)));
        } else {
            for (OffsetFetchResponseData.OffsetFetchResponseTopics t : group.topics()) {
                String name = nameOf.apply(t);
                if (name != null && !describable.contains(name)) {
                    t.partitions().forEach(p -> p.setCommittedOffset(OffsetFetchResponse.INVALID_OFFSET)
                        .setCommittedLeaderEpoch(-1).setMetadata(OffsetFetchResponse.NO_METADATA)
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
                }
            }
        }
        return group;
    }

    @Override
    public short advertisedMinVersion() {
        return 0;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        OffsetFetchRequestData data = ((OffsetFetchRequest) r).data();
        short version = context.apiVersion();
        OffsetFetchResponseData response = new OffsetFetchResponseData().setThrottleTimeMs(0);
        if (version >= 8) {
            for (OffsetFetchRequestData.OffsetFetchRequestGroup group : data.groups()) {
                List<Requested> requested = null;
                if (group.topics() != null) {
                    requested = new ArrayList<>();
                    for (OffsetFetchRequestData.OffsetFetchRequestTopics t : group.topics()) {
                        requested.add(new Requested(t.name(), t.topicId(), t.partitionIndexes()));
                    }
                }
                response.groups().add(authorizedFetch(context, group.groupId(), requested, version >= 10,
                    data.requireStable(), version >= 9 ? group.memberId() : null, version >= 9 ? group.memberEpoch() : -1));
            }
        } else {
            List<Requested> requested = null;
            if (data.topics() != null) {
                requested = new ArrayList<>();
                for (OffsetFetchRequestData.OffsetFetchRequestTopic t : data.topics()) {
                    requested.add(new Requested(t.name(), Uuid.ZERO_UUID, t.partitionIndexes()));
                }
            }
            OffsetFetchResponseData.OffsetFetchResponseGroup group = authorizedFetch(context, data.groupId(), requested,
                false, data.requireStable());
            if (version < 2 && group.errorCode() != Errors.NONE.code() && data.topics() != null) {
                // v0-1 have no group-level error: it goes on every requested partition (as Kafka does).
                for (OffsetFetchRequestData.OffsetFetchRequestTopic t : data.topics()) {
                    OffsetFetchResponseData.OffsetFetchResponseTopic topic =
                        new OffsetFetchResponseData.OffsetFetchResponseTopic().setName(t.name());
                    for (int p : t.partitionIndexes()) {
                        topic.partitions().add(new OffsetFetchResponseData.OffsetFetchResponsePartition()
                            .setPartitionIndex(p).setCommittedOffset(OffsetFetchResponse.INVALID_OFFSET)
                            .setCommittedLeaderEpoch(-1).setMetadata(OffsetFetchResponse.NO_METADATA)
                            .setErrorCode(group.errorCode()));
                    }
                    response.topics().add(topic);
                }
                return Responses.completed(context, new OffsetFetchResponse(response, version));
            }
            for (OffsetFetchResponseData.OffsetFetchResponseTopics t : group.topics()) {
                OffsetFetchResponseData.OffsetFetchResponseTopic topic = new OffsetFetchResponseData.OffsetFetchResponseTopic()
                    .setName(t.name());
                for (OffsetFetchResponseData.OffsetFetchResponsePartitions p : t.partitions()) {
                    topic.partitions().add(new OffsetFetchResponseData.OffsetFetchResponsePartition()
                        .setPartitionIndex(p.partitionIndex()).setCommittedOffset(p.committedOffset())
                        .setCommittedLeaderEpoch(p.committedLeaderEpoch()).setMetadata(p.metadata())
                        .setErrorCode(version < 2 && group.errorCode() != 0 ? group.errorCode() : p.errorCode()));
                }
                response.topics().add(topic);
            }
            if (version >= 2) {
                response.setErrorCode(group.errorCode());
            }
        }
        return Responses.completed(context, new OffsetFetchResponse(response, version));
    }

    /** Partitions asked for, by name (v8-9 and older) or id (v10). */
    private record Requested(String name, Uuid topicId, List<Integer> partitions) {
    }

    private OffsetFetchResponseData.OffsetFetchResponseGroup fetchGroup(String groupId, List<Requested> requested, boolean byId,
                                                                          boolean requireStable) {
        OffsetFetchResponseData.OffsetFetchResponseGroup out = new OffsetFetchResponseData.OffsetFetchResponseGroup()
            .setGroupId(groupId);
        List<TopicPartition> partitions = null;
        Map<String, Uuid> ids = new LinkedHashMap<>();
        if (requested != null) {
            partitions = new ArrayList<>();
            for (Requested t : requested) {
                String name = byId ? metadataCache.topicName(t.topicId()).orElse(null) : t.name();
                if (name == null) {
                    OffsetFetchResponseData.OffsetFetchResponseTopics topic = new OffsetFetchResponseData.OffsetFetchResponseTopics()
                        .setTopicId(t.topicId());
                    t.partitions().forEach(p -> topic.partitions().add(partition(p, null, Errors.UNKNOWN_TOPIC_ID)));
                    out.topics().add(topic);
                    continue;
                }
                ids.put(name, t.topicId());
                for (int p : t.partitions()) {
                    partitions.add(new TopicPartition(name, p));
                }
            }
        }
        GroupCoordinator.FetchedOffsets fetched = coordinator.fetchOffsets(groupId, partitions);
        out.setErrorCode(fetched.error().code());
        if (fetched.error() != Errors.NONE) {
            return out;
        }
        Map<String, OffsetFetchResponseData.OffsetFetchResponseTopics> byTopic = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : fetched.offsets().entrySet()) {
            String name = e.getKey().topic();
            Uuid id = ids.getOrDefault(name, metadataCache.topic(name).map(TopicAssignment::topicId).orElse(null));
            if (byId && id == null) {
                continue;
            }
            OffsetFetchResponseData.OffsetFetchResponseTopics topic = byTopic.computeIfAbsent(name, n -> {
                OffsetFetchResponseData.OffsetFetchResponseTopics t = new OffsetFetchResponseData.OffsetFetchResponseTopics();
                if (byId) {
                    t.setTopicId(id);
                } else {
                    t.setName(n);
                }
                out.topics().add(t);
                return t;
            });
            boolean unstable = requireStable && coordinator.hasPendingTransactionalOffset(groupId, e.getKey());
            topic.partitions().add(unstable ? partition(e.getKey().partition(), null, Errors.UNSTABLE_OFFSET_COMMIT)
                : partition(e.getKey().partition(), e.getValue(), Errors.NONE));
        }
        return out;
    }

    private static OffsetFetchResponseData.OffsetFetchResponsePartitions partition(int index, OffsetAndMetadata offset,
                                                                                  Errors error) {
        return new OffsetFetchResponseData.OffsetFetchResponsePartitions().setPartitionIndex(index)
            .setCommittedOffset(offset == null ? OffsetFetchResponse.INVALID_OFFSET : offset.offset())
            .setCommittedLeaderEpoch(offset == null ? -1 : offset.leaderEpoch())
            .setMetadata(offset == null ? OffsetFetchResponse.NO_METADATA : offset.metadata())
            .setErrorCode(error.code());
    }
}
