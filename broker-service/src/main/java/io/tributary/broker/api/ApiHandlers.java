package io.tributary.broker.api;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.Controller;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.producer.ProducerIdManager;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.AclStore;
import io.tributary.broker.security.ScramCredentialStore;
import java.util.List;
import java.util.concurrent.Executor;

/** Builds the handler of every api this broker serves. */
public final class ApiHandlers {

    private ApiHandlers() {
    }

    /**
     * @param blockingExecutor the request handler pool, for work that may block
     * @return every handler, ApiVersions included
     */
    public static List<ApiHandler> create(BrokerProperties properties, MetadataCache metadataCache,
                                          ReplicaManager replicaManager, AdminManager adminManager,
                                          ProducerIdManager producerIdManager, GroupCoordinator groupCoordinator,
                                          Controller controller, ScramCredentialStore scramCredentialStore,
                                          AclStore aclStore, Executor blockingExecutor) {
        ConfigDescriber configDescriber = new ConfigDescriber(properties, adminManager.logConfigDefaults());
        List<ApiHandler> handlers = List.of(
            new ProduceHandler(replicaManager, metadataCache),
            new FetchHandler(replicaManager, metadataCache, replicaManager.topicStats()),
            new ListOffsetsHandler(replicaManager),
            new MetadataHandler(metadataCache, adminManager, properties.autoCreateTopicsEnable(), blockingExecutor),
            new OffsetForLeaderEpochHandler(replicaManager),
            new CreateTopicsHandler(adminManager, metadataCache, configDescriber),
            new DeleteTopicsHandler(adminManager, metadataCache),
            new CreatePartitionsHandler(adminManager, metadataCache),
            new DeleteRecordsHandler(replicaManager),
            new InitProducerIdHandler(producerIdManager),
            new DescribeConfigsHandler(adminManager, configDescriber, properties.id()),
            new IncrementalAlterConfigsHandler(adminManager),
            new DescribeClusterHandler(metadataCache),
            new DescribeLogDirsHandler(replicaManager),
            new FindCoordinatorHandler(metadataCache, adminManager, groupCoordinator, properties),
            new JoinGroupHandler(groupCoordinator),
            new SyncGroupHandler(groupCoordinator),
            new HeartbeatHandler(groupCoordinator),
            new LeaveGroupHandler(groupCoordinator),
            new OffsetCommitHandler(groupCoordinator, metadataCache),
            new OffsetFetchHandler(groupCoordinator, metadataCache),
            new DescribeGroupsHandler(groupCoordinator),
            new ListGroupsHandler(groupCoordinator),
            new DeleteGroupsHandler(groupCoordinator),
            new OffsetDeleteHandler(groupCoordinator),
            new ElectLeadersHandler(controller),
            new AlterPartitionReassignmentsHandler(controller),
            new ListPartitionReassignmentsHandler(metadataCache),
            new SaslHandshakeHandler(),
            new SaslAuthenticateHandler(),
            new DescribeClientQuotasHandler(),
            new DescribeUserScramCredentialsHandler(scramCredentialStore),
            new AlterUserScramCredentialsHandler(scramCredentialStore),
            new DescribeAclsHandler(aclStore),
            new CreateAclsHandler(aclStore),
            new DeleteAclsHandler(aclStore));
        return new ApiVersionsHandler(handlers, metadataCache::clusterId, properties.id()).allHandlers();
    }
}
