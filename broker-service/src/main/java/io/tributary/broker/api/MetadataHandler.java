package io.tributary.broker.api;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.BrokerInfo;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Metadata (v0-13): brokers on the request's listener, the controller, and each requested
 * topic's id, partitions, leaders, leader epochs, replicas, ISR and offline replicas. A topic
 * the request asks to auto-create (v4+ {@code AllowAutoTopicCreation}) is created when
 * {@code auto.create.topics.enable} allows it and answered with LEADER_NOT_AVAILABLE, as Kafka
 * does, until its leaders are elected. A partition without a leader answers
 * LEADER_NOT_AVAILABLE, and one whose live leader has no end point on the request's listener
 * (listeners changing in a rolling restart) LISTENER_NOT_FOUND from v6, LEADER_NOT_AVAILABLE
 * before, as Kafka; a topic being deleted is unknown.
 */
public final class MetadataHandler extends VersionedHandler {

    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;
    private final AdminManager adminManager;
    private final boolean autoCreateTopicsEnable;
    /**
     * @param adminManager creates topics asked for when auto-creation is on (ZooKeeper writes, on the
     *                     request handler thread)
     */
    public MetadataHandler(MetadataCache metadataCache, AdminManager adminManager, boolean autoCreateTopicsEnable,
                           BrokerAuthorizer authorizer) {
        super(ApiKeys.METADATA, 0, 13);
        this.authorizer = authorizer;
        this.metadataCache = metadataCache;
        this.adminManager = adminManager;
        this.autoCreateTopicsEnable = autoCreateTopicsEnable;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        MetadataRequest request = (MetadataRequest) r;
        MetadataRequestData data = request.data();
        short version = context.apiVersion();
        boolean allTopics = data.topics() == null || (version == 0 && data.topics().isEmpty());
        List<MetadataResponseTopic> unknownIds = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        Map<String, Uuid> requestedById = new java.util.HashMap<>();
        if (allTopics) {
            metadataCache.topicNames().stream().sorted().filter(t -> !metadataCache.isPendingDeletion(t)).forEach(names::add);
        } else {
            for (MetadataRequestData.MetadataRequestTopic t : data.topics()) {
                // A topic asked for by id (KIP-516) comes with a null name, or an empty one from some clients.
                if ((t.name() == null || t.name().isEmpty()) && t.topicId() != null
                        && !Uuid.ZERO_UUID.equals(t.topicId())) {
                    Optional<String> name = metadataCache.topicName(t.topicId());
                    if (name.isPresent()) {
                        names.add(name.get());
                        requestedById.put(name.get(), t.topicId());
                    } else {
                        unknownIds.add(new MetadataResponseTopic().setTopicId(t.topicId())
                            .setErrorCode(Errors.UNKNOWN_TOPIC_ID.code()).setIsInternal(false));
                    }
                } else if (t.name() != null) {
                    names.add(t.name());
                }
            }
        }
        // Topics the principal may not DESCRIBE are left out of an all-topics answer and answered
        // TOPIC_AUTHORIZATION_FAILED when named; auto-creation needs CREATE on the cluster or the topic.
        Set<String> describable = authorizer.filter(context, AclOperation.DESCRIBE, ResourceType.TOPIC, names);
        Map<String, Errors> errors = new java.util.HashMap<>();
        if (allTopics) {
            names.retainAll(describable);
        } else {
            for (java.util.Iterator<String> it = names.iterator(); it.hasNext(); ) {
                String name = it.next();
                if (describable.contains(name)) {
                    continue;
                }
                Uuid id = requestedById.get(name);
                if (id != null) {
                    // Asked by id: refused without the name the id stands for, as Kafka answers.
                    it.remove();
                    unknownIds.add(new MetadataResponseTopic().setTopicId(id).setName(null)
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).setIsInternal(false));
                } else {
                    errors.put(name, Errors.TOPIC_AUTHORIZATION_FAILED);
                }
            }
        }
        boolean mayCreate = !allTopics && autoCreateTopicsEnable && (version < 4 || data.allowAutoTopicCreation());
        List<String> toCreate = new ArrayList<>();
        if (mayCreate) {
            boolean clusterCreate = authorizer.authorizeCluster(context, AclOperation.CREATE);
            for (String name : names) {
                if (!errors.containsKey(name) && metadataCache.topic(name).isEmpty()
                        && !metadataCache.isPendingDeletion(name) && Topic.isValid(name) && !Topic.isInternal(name)) {
                    if (clusterCreate || authorizer.authorize(context, AclOperation.CREATE, ResourceType.TOPIC, name)) {
                        toCreate.add(name);
                    } else {
                        errors.put(name, Errors.TOPIC_AUTHORIZATION_FAILED);
                    }
                }
            }
        }
        if (toCreate.isEmpty()) {
            return CompletableFuture.completedFuture(respond(context, request, names, unknownIds, errors));
        }
        Map<String, Errors> creationErrors = new java.util.HashMap<>(errors);
        for (String name : toCreate) {
            AdminManager.CreateTopicResult result = adminManager.createTopic(
                new AdminManager.TopicCreation(name, -1, (short) -1, Map.of(), Map.of()), false);
            Errors error = result.error().error();
            creationErrors.put(name, error == Errors.NONE || error == Errors.TOPIC_ALREADY_EXISTS
                ? Errors.LEADER_NOT_AVAILABLE : error);
        }
        return CompletableFuture.completedFuture(respond(context, request, names, unknownIds, creationErrors));
    }

    private Response respond(RequestContext context, MetadataRequest request, Set<String> names,
                             List<MetadataResponseTopic> unknownIds, Map<String, Errors> creationErrors) {
        MetadataResponseData response = new MetadataResponseData()
            .setThrottleTimeMs(0)
            .setClusterId(metadataCache.clusterId())
            .setControllerId(metadataCache.controllerId());
        for (BrokerInfo broker : metadataCache.aliveBrokers()) {
            Optional<EndPoint> endPoint = broker.endPoint(context.listenerName());
            endPoint.ifPresent(e -> response.brokers().add(new MetadataResponseBroker()
                .setNodeId(broker.id()).setHost(e.host()).setPort(e.port()).setRack(broker.rack())));
        }
        boolean includeTopicOps = context.apiVersion() >= 8 && request.data().includeTopicAuthorizedOperations();
        for (String name : names) {
            response.topics().add(topicMetadata(context, name, creationErrors.get(name), includeTopicOps));
        }
        unknownIds.forEach(response.topics()::add);
        if (context.apiVersion() >= 8 && context.apiVersion() <= 10 && request.data().includeClusterAuthorizedOperations()) {
            response.setClusterAuthorizedOperations(authorizer.enabled()
                ? AuthorizedOperations.cluster(authorizer, context) : AuthorizedOperations.CLUSTER_ALL);
        }
        return Responses.of(context, new MetadataResponse(response, context.apiVersion()));
    }

    private MetadataResponseTopic topicMetadata(RequestContext context, String name, Errors creationError,
                                                boolean includeTopicOps) {
        MetadataResponseTopic topic = new MetadataResponseTopic().setName(name).setIsInternal(Topic.isInternal(name));
        if (includeTopicOps) {
            topic.setTopicAuthorizedOperations(authorizer.enabled()
                ? AuthorizedOperations.of(authorizer, context, ResourceType.TOPIC, name) : AuthorizedOperations.TOPIC_ALL);
        }
        if (creationError != null) {
            return topic.setErrorCode(creationError.code());
        }
        if (!Topic.isValid(name)) {
            return topic.setErrorCode(Errors.INVALID_TOPIC_EXCEPTION.code());
        }
        Optional<TopicAssignment> assignment = metadataCache.topic(name).filter(t -> !metadataCache.isPendingDeletion(name));
        if (assignment.isEmpty()) {
            return topic.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
        topic.setTopicId(assignment.get().topicId()).setErrorCode(Errors.NONE.code());
        assignment.get().replicas().forEach((partition, replicas) ->
            topic.partitions().add(partitionMetadata(context, new TopicPartition(name, partition), replicas)));
        return topic;
    }

    private MetadataResponsePartition partitionMetadata(RequestContext context, TopicPartition tp, List<Integer> replicas) {
        PartitionView view = PartitionView.of(metadataCache, tp, replicas, context.listenerName(), context.apiVersion() >= 6);
        return new MetadataResponsePartition()
            .setPartitionIndex(tp.partition())
            .setErrorCode(view.error().code())
            .setLeaderId(view.leaderId())
            .setLeaderEpoch(view.leaderEpoch())
            .setReplicaNodes(new ArrayList<>(view.replicas()))
            .setIsrNodes(new ArrayList<>(view.isr()))
            .setOfflineReplicas(new ArrayList<>(view.offlineReplicas()));
    }
}
