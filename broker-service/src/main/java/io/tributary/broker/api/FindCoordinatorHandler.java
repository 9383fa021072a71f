package io.tributary.broker.api;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.share.coordinator.ShareStateKey;
import io.tributary.broker.share.coordinator.ShareStateTopic;
import io.tributary.broker.transaction.TransactionComponents;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.resource.ResourceType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * FindCoordinator (v0-6, batched from v4, KIP-699): the coordinator of a group is the leader of
 * its {@code __consumer_offsets} partition. The first lookup creates the offsets topic (compacted,
 * {@code offsets.topic.num.partitions} partitions, {@code offsets.topic.replication.factor});
 * until it has a leader the answer is COORDINATOR_NOT_AVAILABLE and clients retry. The coordinator
 * of a transactional id is the leader of its {@code __transaction_state} partition, created the
 * same way on first lookup (compacted, {@code transaction.state.log.*}; its replication factor is
 * capped by the live brokers, its {@code min.insync.replicas} by that, with a warning), and needs
 * DESCRIBE on the id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED). The share coordinator of a
 * share-partition (key type SHARE, v6, key {@code groupId:topicId:partition}, KIP-932) is the leader
 * of its {@code __share_group_state} partition, created the same way on first lookup
 * ({@code share.coordinator.state.topic.*}); only brokers ask (CLUSTER_ACTION on the cluster, else
 * CLUSTER_AUTHORIZATION_FAILED), a malformed key gets INVALID_REQUEST.
 */
public final class FindCoordinatorHandler extends VersionedHandler {

    private static final Logger log = LoggerFactory.getLogger(FindCoordinatorHandler.class);
    private static final byte GROUP_KEY_TYPE = 0;
    private static final byte TRANSACTION_KEY_TYPE = 1;
    private static final byte SHARE_KEY_TYPE = 2;

    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;
    private final AdminManager adminManager;
    private final GroupCoordinator groupCoordinator;
    private final TransactionComponents transactions;
    private final ShareStateTopic shareStateTopic;
    private final BrokerProperties properties;

    FindCoordinatorHandler(MetadataCache metadataCache, AdminManager adminManager, GroupCoordinator groupCoordinator,
                           TransactionComponents transactions, ShareStateTopic shareStateTopic, BrokerProperties properties,
                           BrokerAuthorizer authorizer) {
        super(ApiKeys.FIND_COORDINATOR, 0, 6);
        this.authorizer = authorizer;
        this.metadataCache = metadataCache;
        this.adminManager = adminManager;
        this.groupCoordinator = groupCoordinator;
        this.transactions = transactions;
        this.shareStateTopic = shareStateTopic;
        this.properties = properties;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        FindCoordinatorRequest request = (FindCoordinatorRequest) r;
        byte keyType = request.data().keyType();
        List<String> keys = context.apiVersion() >= 4 ? request.data().coordinatorKeys() : List.of(request.data().key());
        FindCoordinatorResponseData response = new FindCoordinatorResponseData().setThrottleTimeMs(0);
        for (String key : keys) {
            FindCoordinatorResponseData.Coordinator coordinator = find(context, keyType, key);
            if (context.apiVersion() >= 4) {
                response.coordinators().add(coordinator);
            } else {
                response.setErrorCode(coordinator.errorCode()).setErrorMessage(coordinator.errorMessage())
                    .setNodeId(coordinator.nodeId()).setHost(coordinator.host()).setPort(coordinator.port());
            }
        }
        return Responses.completed(context, new FindCoordinatorResponse(response));
    }

    private FindCoordinatorResponseData.Coordinator find(RequestContext context, byte keyType, String key) {
        FindCoordinatorResponseData.Coordinator coordinator = new FindCoordinatorResponseData.Coordinator().setKey(key)
            .setNodeId(-1).setHost("").setPort(-1);
        if (keyType == TRANSACTION_KEY_TYPE) {
            return findTransactionCoordinator(context, coordinator, key);
        }
        if (keyType == SHARE_KEY_TYPE && context.apiVersion() >= 6) {
            return findShareCoordinator(context, coordinator, key);
        }
        if (keyType != GROUP_KEY_TYPE) {
            return coordinator.setErrorCode(Errors.INVALID_REQUEST.code())
                .setErrorMessage("Unknown coordinator key type " + keyType + " in version " + context.apiVersion());
        }
        if (key == null || key.isEmpty()) {
            return coordinator.setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage("Empty group id");
        }
        if (!authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.GROUP, key)) {
            return coordinator.setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())
                .setErrorMessage(Errors.GROUP_AUTHORIZATION_FAILED.message());
        }
        if (metadataCache.topic(Topic.GROUP_METADATA_TOPIC_NAME).isEmpty()) {
            createOffsetsTopic();
            return coordinator.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code());
        }
        return leaderOf(context, coordinator,
            new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, groupCoordinator.partitionFor(key)));
    }

    private FindCoordinatorResponseData.Coordinator findTransactionCoordinator(
            RequestContext context, FindCoordinatorResponseData.Coordinator coordinator, String key) {
        if (key == null || key.isEmpty()) {
            return coordinator.setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage("Empty transactional id");
        }
        if (!authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key)) {
            return coordinator.setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code())
                .setErrorMessage(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.message());
        }
        if (metadataCache.topic(Topic.TRANSACTION_STATE_TOPIC_NAME).isEmpty()) {
            createTransactionStateTopic();
            return coordinator.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code());
        }
        return leaderOf(context, coordinator,
            new TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, transactions.partitionFor(key)));
    }

    private FindCoordinatorResponseData.Coordinator findShareCoordinator(
            RequestContext context, FindCoordinatorResponseData.Coordinator coordinator, String key) {
        if (!authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION)) {
            return coordinator.setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code())
                .setErrorMessage(Errors.CLUSTER_AUTHORIZATION_FAILED.message());
        }
        ShareStateKey shareKey;
        try {
            shareKey = ShareStateKey.parse(key);
        } catch (RuntimeException e) {
            return coordinator.setErrorCode(Errors.INVALID_REQUEST.code())
                .setErrorMessage("Not a share coordinator key (groupId:topicId:partition): " + key);
        }
        if (!shareStateTopic.exists()) {
            shareStateTopic.ensureCreated();
            return coordinator.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code());
        }
        return leaderOf(context, coordinator, new TopicPartition(Topic.SHARE_GROUP_STATE_TOPIC_NAME,
            shareKey.partitionFor(shareStateTopic.numPartitions())));
    }

    private FindCoordinatorResponseData.Coordinator leaderOf(RequestContext context,
                                                             FindCoordinatorResponseData.Coordinator coordinator,
                                                             TopicPartition tp) {
        Optional<EndPoint> endPoint = metadataCache.partitionState(tp).filter(LeaderAndIsr::hasLeader)
            .flatMap(s -> metadataCache.broker(s.leader())).flatMap(b -> b.endPoint(context.listenerName()));
        if (endPoint.isEmpty()) {
            return coordinator.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code());
        }
        int leader = metadataCache.partitionState(tp).map(LeaderAndIsr::leader).orElse(-1);
        return coordinator.setErrorCode(Errors.NONE.code()).setNodeId(leader).setHost(endPoint.get().host())
            .setPort(endPoint.get().port());
    }

    private void createTransactionStateTopic() {
        int liveBrokers = metadataCache.aliveBrokers().size();
        short replicationFactor = (short) Math.max(1, Math.min(properties.transactionStateLogReplicationFactor(),
            liveBrokers));
        if (replicationFactor < properties.transactionStateLogReplicationFactor()) {
            log.warn("Creating {} with replication factor {}: only {} broker(s) are live, below "
                    + "broker.transaction-state-log-replication-factor {}", Topic.TRANSACTION_STATE_TOPIC_NAME,
                replicationFactor, liveBrokers, properties.transactionStateLogReplicationFactor());
        }
        int minIsr = Math.min(properties.transactionStateLogMinIsr(), replicationFactor);
        createInternalTopic(Topic.TRANSACTION_STATE_TOPIC_NAME, properties.transactionStateLogNumPartitions(),
            replicationFactor, Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.SEGMENT_BYTES_CONFIG, Integer.toString(properties.transactionStateLogSegmentBytes()),
                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minIsr),
                TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false",
                TopicConfig.COMPRESSION_TYPE_CONFIG, "producer"));
    }

    private void createOffsetsTopic() {
        createInternalTopic(Topic.GROUP_METADATA_TOPIC_NAME, properties.offsetsTopicNumPartitions(),
            properties.offsetsTopicReplicationFactor(), Map.of(TopicConfig.CLEANUP_POLICY_CONFIG,
                TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.SEGMENT_BYTES_CONFIG, Integer.toString(properties.offsetsTopicSegmentBytes()),
                TopicConfig.COMPRESSION_TYPE_CONFIG, "producer"));
    }

    /** Creates a coordinator's internal topic; one that exists already is left as it is. */
    private void createInternalTopic(String name, int partitions, short replicationFactor, Map<String, String> configs) {
        AdminManager.CreateTopicResult result = adminManager.createTopic(new AdminManager.TopicCreation(
            name, partitions, replicationFactor, Map.of(), configs), false);
        Errors error = result.error().error();
        if (error != Errors.NONE && error != Errors.TOPIC_ALREADY_EXISTS) {
            log.warn("Could not create {}: {} {}", name, error, result.error().message());
        }
    }
}
