package io.tributary.broker.api;

import io.tributary.broker.audit.RefusedRequestLog;
import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.Controller;
import io.tributary.broker.cluster.FeatureManager;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.fetchsession.FetchManager;
import io.tributary.broker.group.GroupConfigManager;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.group.ShareGroupOffsets;
import io.tributary.broker.quota.ClientQuotas;
import io.tributary.broker.group.TransactionVerifier;
import io.tributary.broker.producer.ProducerIdManager;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.AclStore;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.security.ScramCredentialStore;
import io.tributary.broker.share.ShareComponents;
import io.tributary.broker.transaction.TransactionComponents;
import java.util.List;
import org.apache.kafka.common.utils.Time;

/** Builds the handler of every api this broker serves. */
public final class ApiHandlers {

    private ApiHandlers() {
    }

    /**
     * @param handlerExecutor runs work a handler resumes after waiting on another broker, on a
     *                        request handler thread
     * @param refusals        where refused config changes are logged
     * @param shares          share groups' record delivery (ShareFetch, ShareAcknowledge, KIP-932)
     * @param forwarder       sends controller requests received here on to the active controller
     * @return every handler, ApiVersions included
     */
    public static List<ApiHandler> create(BrokerProperties properties, BrokerSecurityProperties securityProperties,
                                          MetadataCache metadataCache,
                                          ReplicaManager replicaManager, FetchManager fetchManager,
                                          ClientQuotas clientQuotas,
                                          AdminManager adminManager,
                                          ProducerIdManager producerIdManager, GroupCoordinator groupCoordinator,
                                          GroupConfigManager groupConfigs,
                                          TransactionComponents transactions, ShareComponents shares,
                                          Controller controller, ControllerForwarder forwarder,
                                          FeatureManager features,
                                          ScramCredentialStore scramCredentialStore,
                                          AclStore aclStore, BrokerAuthorizer authorizer,
                                          java.util.concurrent.Executor handlerExecutor, RefusedRequestLog refusals,
                                          Time time) {
        ConfigDescriber configDescriber = new ConfigDescriber(properties, securityProperties, adminManager.dynamicConfig());
        ShareGroupOffsets shareGroupOffsets = groupCoordinator.modernGroups().shareGroupOffsets(
            shares.groupStates(), time);
        List<ApiHandler> handlers = List.of(
            new ProduceHandler(replicaManager, metadataCache, authorizer, clientQuotas.produce(),
                properties.transactionPartitionVerificationEnable() ? transactions.verifier() : null, handlerExecutor),
            new FetchHandler(replicaManager, metadataCache, replicaManager.topicStats(), authorizer, fetchManager,
                clientQuotas.fetch(),
                properties.fetchMaxBytes()),
            new ShareFetchHandler(shares, metadataCache, authorizer, replicaManager.topicStats(), clientQuotas.fetch(),
                properties.fetchMaxBytes()),
            new ShareAcknowledgeHandler(shares, metadataCache, authorizer),
            new InitializeShareGroupStateHandler(shares.coordinator(), authorizer),
            new ReadShareGroupStateHandler(shares.coordinator(), authorizer),
            new WriteShareGroupStateHandler(shares.coordinator(), authorizer),
            new DeleteShareGroupStateHandler(shares.coordinator(), authorizer),
            new ReadShareGroupStateSummaryHandler(shares.coordinator(), authorizer),
            new ListOffsetsHandler(replicaManager, authorizer),
            new MetadataHandler(metadataCache, adminManager, properties.autoCreateTopicsEnable(), authorizer),
            new OffsetForLeaderEpochHandler(replicaManager, authorizer),
            new DescribeTopicPartitionsHandler(metadataCache, authorizer, properties.maxRequestPartitionSizeLimit()),
            new CreateTopicsHandler(adminManager, metadataCache, configDescriber, authorizer,
                clientQuotas.controllerMutation()),
            new DeleteTopicsHandler(adminManager, metadataCache, authorizer, clientQuotas.controllerMutation()),
            new CreatePartitionsHandler(adminManager, metadataCache, authorizer, clientQuotas.controllerMutation()),
            new DeleteRecordsHandler(replicaManager, authorizer),
            new InitProducerIdHandler(producerIdManager, transactions.coordinator(), authorizer),
            new AddPartitionsToTxnHandler(transactions.coordinator(), metadataCache, authorizer),
            new AddOffsetsToTxnHandler(transactions.coordinator(), groupCoordinator, authorizer),
            new TxnOffsetCommitHandler(groupCoordinator, authorizer, version -> properties.transactionPartitionVerificationEnable()
                ? new TxnOffsetCommitVerification(replicaManager, transactions.verifier(), handlerExecutor, version >= 4)
                : TransactionVerifier.DISABLED),
            new DescribeTransactionsHandler(transactions.coordinator(), authorizer),
            new ListTransactionsHandler(transactions.coordinator(), authorizer),
            new DescribeProducersHandler(replicaManager, metadataCache, authorizer),
            new EndTxnHandler(transactions.coordinator(), authorizer),
            new DescribeConfigsHandler(adminManager, configDescriber, groupConfigs, properties.id(), authorizer),
            new IncrementalAlterConfigsHandler(adminManager, groupConfigs, authorizer, refusals),
            new AlterConfigsHandler(adminManager, groupConfigs, authorizer, refusals),
            new DescribeClusterHandler(metadataCache, authorizer),
            new DescribeLogDirsHandler(replicaManager, authorizer),
            new FindCoordinatorHandler(metadataCache, adminManager, groupCoordinator, transactions, shares.stateTopic(), properties,
                authorizer),
            new JoinGroupHandler(groupCoordinator, authorizer),
            new SyncGroupHandler(groupCoordinator, authorizer),
            new HeartbeatHandler(groupCoordinator, authorizer),
            new ConsumerGroupHeartbeatHandler(groupCoordinator, metadataCache, authorizer),
            new ConsumerGroupDescribeHandler(groupCoordinator, authorizer),
            new ShareGroupHeartbeatHandler(groupCoordinator, metadataCache, authorizer),
            new ShareGroupDescribeHandler(groupCoordinator, metadataCache, authorizer),
            new DescribeShareGroupOffsetsHandler(shareGroupOffsets, metadataCache, authorizer),
            new AlterShareGroupOffsetsHandler(shareGroupOffsets, metadataCache, authorizer),
            new DeleteShareGroupOffsetsHandler(shareGroupOffsets, metadataCache, authorizer),
            new LeaveGroupHandler(groupCoordinator, authorizer),
            new OffsetCommitHandler(groupCoordinator, metadataCache, authorizer),
            new OffsetFetchHandler(groupCoordinator, metadataCache, authorizer),
            new DescribeGroupsHandler(groupCoordinator, authorizer),
            new ListGroupsHandler(groupCoordinator, authorizer),
            new DeleteGroupsHandler(groupCoordinator, shareGroupOffsets, authorizer),
            new OffsetDeleteHandler(groupCoordinator, authorizer),
            new ElectLeadersHandler(controller, forwarder, authorizer),
            new AlterPartitionReassignmentsHandler(controller, authorizer),
            new ListPartitionReassignmentsHandler(metadataCache, authorizer),
            new SaslHandshakeHandler(),
            new SaslAuthenticateHandler(),
            new DescribeClientQuotasHandler(clientQuotas.store()::readAll, authorizer),
            new AlterClientQuotasHandler(clientQuotas.store(), authorizer, refusals),
            new UpdateFeaturesHandler(features, authorizer),
            new DescribeUserScramCredentialsHandler(scramCredentialStore, authorizer),
            new AlterUserScramCredentialsHandler(scramCredentialStore, authorizer),
            new DescribeAclsHandler(aclStore, authorizer),
            new CreateAclsHandler(aclStore, authorizer),
            new DeleteAclsHandler(aclStore, authorizer),
            new WriteTxnMarkersHandler(replicaManager, metadataCache, groupCoordinator, authorizer,
                properties.requestTimeoutMs(), time));
        return new ApiVersionsHandler(handlers, metadataCache::clusterId, properties.id(), BrokerFeatures.CURRENT,
            metadataCache::finalizedFeatures).allHandlers();
    }
}
