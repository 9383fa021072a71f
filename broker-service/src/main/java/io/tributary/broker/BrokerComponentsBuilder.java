package io.tributary.broker;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.broker.ShutdownSequence.Step;
import io.tributary.broker.api.ApiHandlers;
import io.tributary.broker.api.ControllerForwarder;
import io.tributary.broker.api.KafkaApis;
import io.tributary.broker.audit.RefusedRequestLog;
import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.BrokerConfigManager;
import io.tributary.broker.cluster.BrokerEpoch;
import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.BrokerInfo;
import io.tributary.broker.cluster.BrokerRegistration;
import io.tributary.broker.cluster.Controller;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.FeatureManager;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.MetadataListener;
import io.tributary.broker.cluster.ReplicaAssignor;
import io.tributary.broker.cluster.ZkProducerIdManager;
import io.tributary.broker.config.BrokerConfigNames;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.ShareGroupProperties;
import io.tributary.broker.config.DynamicBrokerConfig;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.fetchsession.FetchManager;
import io.tributary.broker.fetchsession.FetchSessionCache;
import io.tributary.broker.group.ConsumerLagMetrics;
import io.tributary.broker.group.DeletedTopicOffsets;
import io.tributary.broker.group.GroupConfigManager;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.group.ShareGroupOffsets;
import io.tributary.broker.log.LogCleaner;
import io.tributary.broker.log.LogDirFailureChannel;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.metrics.BrokerTopicStats;
import io.tributary.broker.metrics.RequestMetrics;
import io.tributary.broker.network.ConnectionQuotas;
import io.tributary.broker.network.RequestChannel;
import io.tributary.broker.network.RequestHandlerPool;
import io.tributary.broker.network.SocketServer;
import io.tributary.broker.quota.ClientQuotaStore;
import io.tributary.broker.quota.ClientQuotas;
import io.tributary.broker.quota.ReplicationQuotas;
import io.tributary.broker.replica.BrokerBlockingSender;
import io.tributary.broker.replica.InterBrokerSender;
import io.tributary.broker.replica.LastStableOffsetLagGauges;
import io.tributary.broker.replica.LogDirFailureHandler;
import io.tributary.broker.replica.ReplicaComponents;
import io.tributary.broker.replica.ReplicaFetcherManager;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.replica.ZkIsrUpdater;
import io.tributary.broker.scheduler.DefaultScheduler;
import io.tributary.broker.security.AclStore;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.security.ListenerSecurity;
import io.tributary.broker.security.ScramCredentialStore;
import io.tributary.broker.security.SecurityBootstrap;
import io.tributary.broker.security.SslStoreWatcher;
import io.tributary.broker.share.ShareComponents;
import io.tributary.broker.share.ShareComponentsFactory;
import io.tributary.broker.share.ShareGroupStates;
import io.tributary.broker.transaction.TransactionComponents;
import io.tributary.broker.transaction.TransactionMetrics;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.replica.ReplicaSelector;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds and starts one broker's {@link BrokerComponents} in start order, one phase per call,
 * called by {@link BrokerServer} in this order:
 * <ol>
 *   <li>{@link #connectZooKeeper}: the embedded ZooKeeper (when {@code broker.zookeeper-connect} is
 *       not set), the client, the persistent paths and the cluster id;</li>
 *   <li>{@link #lockLogDirs}: the scheduler and the log manager, its directories locked and checked
 *       against the cluster id and broker id (the broker then enters RECOVERY);</li>
 *   <li>{@link #loadLogsAndStart}: logs loaded and recovered; metadata cache, replica layer
 *       ({@link ReplicaComponents#build}), controller, group coordinator, request handler pool;
 *       bootstrap SCRAM users and ACLs written when absent ({@link SecurityBootstrap}); stores and
 *       metadata loaded (partitions this broker leads become leaders); listeners bound; registration
 *       in ZooKeeper; controller election; consumer lag metrics.</li>
 * </ol>
 * Each part's stop is added to a {@link ShutdownSequence} as soon as the part exists; when a phase
 * throws, the broker stops what was built ({@link #shutdownSoFar}). Holds no protocol or storage logic.
 *
 * <p>One builder per start; not thread-safe (the broker's start is synchronized).
 */
final class BrokerComponentsBuilder {

    private static final Logger log = LoggerFactory.getLogger(BrokerComponentsBuilder.class);

    /**
     * How long in-flight requests get to finish when the broker stops, ms. Kafka joins its handler
     * threads without a bound and has no setting; a bound keeps one handler stuck on a hung disk
     * from holding the shutdown (and the clean-shutdown marker) forever, and 10 s is well above a
     * request's fsync on a healthy disk.
     */
    static final long REQUEST_HANDLER_SHUTDOWN_TIMEOUT_MS = 10_000;

    /**
     * The consumer lag reader's admin request timeout, ms (Tributary's own feature, so no Kafka
     * setting): well below the default 30 s {@code broker.consumer-lag-metrics-interval-ms}, so
     * a refresh against a slow broker ends before the next one is due.
     */
    static final long CONSUMER_LAG_REQUEST_TIMEOUT_MS = 10_000;

    /** How often the last stable offset lag series follow the partitions led here, ms. */
    static final long LSO_LAG_REFRESH_MS = 5_000;

    /** Threads of the broker's scheduler (flushes, checkpoints, retention, ISR checks): short tasks. */

    private final BrokerProperties properties;
    private final BrokerSecurityProperties security;
    private final ShareGroupProperties shareGroups;
    private final SecurityBootstrap securityBootstrap;
    private final BrokerAuthorizer authorizer;
    private final DynamicBrokerConfig dynamicConfig;
    private final RequestMetrics requestMetrics;
    private final RefusedRequestLog refusals;
    private final MeterRegistry registry;
    private final Time time;
    private final ShutdownSequence.Builder stops = new ShutdownSequence.Builder();

    /**
     * @param logConfigDefaults the broker's topic config defaults ({@link LogConfig#brokerDefaults})
     * @param refusals          where refused requests are logged
     * @param registry          where the per-topic, consumer-lag and TLS reload meters are registered
     */
    BrokerComponentsBuilder(BrokerProperties properties, BrokerSecurityProperties security,
                            ShareGroupProperties shareGroups, SecurityBootstrap securityBootstrap, BrokerAuthorizer authorizer,
                            Map<String, Object> logConfigDefaults,
                            RequestMetrics requestMetrics, RefusedRequestLog refusals, MeterRegistry registry,
                            Time time) {
        this.refusals = refusals;
        this.properties = properties;
        this.security = security;
        this.shareGroups = shareGroups;
        this.securityBootstrap = securityBootstrap;
        this.authorizer = authorizer;
        this.dynamicConfig = new DynamicBrokerConfig(properties.id(), logConfigDefaults,
            BrokerConfigNames.describe(properties), security.passwordEncoderSecret() == null
                || security.passwordEncoderSecret().isEmpty() ? null
                : new io.tributary.broker.config.DynamicPasswordEncoder(security.passwordEncoderSecret()));
        this.requestMetrics = requestMetrics;
        this.registry = registry;
        this.time = time;
    }

    /** Phase 1: ZooKeeper connected (started first when embedded), its persistent paths and the cluster id. */
    BrokerComponents.ZooKeeper connectZooKeeper() throws IOException {
        String connect = properties.zookeeperConnect();
        EmbeddedZooKeeper embedded = null;
        if (properties.useEmbeddedZookeeper()) {
            embedded = EmbeddedZooKeeper.start(properties.embeddedZookeeperDir().toFile(),
                properties.embeddedZookeeperPort(), properties.embeddedZookeeperTickTimeMs(), true);
            stops.add(Step.EMBEDDED_ZOOKEEPER, embedded::close);
            connect = embedded.connectString();
        }
        KafkaZkClient zkClient = KafkaZkClient.connect(connect, properties.zookeeperSessionTimeoutMs(),
            properties.zookeeperConnectionTimeoutMs(), security.zookeeperDigestCredentials(),
            security.zookeeperSetAcl());
        stops.add(Step.ZOOKEEPER_CLIENT, zkClient::close);
        zkClient.ensurePersistentPaths();
        return new BrokerComponents.ZooKeeper(Optional.ofNullable(embedded), zkClient, zkClient.getOrCreateClusterId());
    }

    /** Phase 2: the scheduler and the log manager, its directories locked for this cluster and broker. */
    BrokerComponents.Storage lockLogDirs(BrokerComponents.ZooKeeper zooKeeper) throws IOException {
        DefaultScheduler scheduler = new DefaultScheduler(properties.backgroundThreads(),
            "broker-" + properties.id() + "-scheduler");
        stops.add(Step.SCHEDULER, scheduler::shutdown);
        LogDirFailureChannel logDirFailures = new LogDirFailureChannel();
        LogManager.Settings settings = new LogManager.Settings(
            properties.numRecoveryThreadsPerDataDir(), properties.logRetentionCheckIntervalMs(),
            properties.logFlushSchedulerIntervalMs(), properties.logFlushOffsetCheckpointIntervalMs(),
            properties.replicaHighWatermarkCheckpointIntervalMs(), properties.producerIdExpirationMs(),
            properties.producerIdExpirationCheckIntervalMs());
        if (properties.logCleanerEnable()) {
            settings = settings.withCleaner(new LogCleaner.Config(properties.logCleanerThreads(),
                properties.logCleanerDedupeBufferSize(), properties.logCleanerIoBufferSize(),
                properties.logCleanerBackoffMs(), properties.logCleanerIoBufferLoadFactor(),
                properties.logCleanerIoMaxBytesPerSecond()));
        }
        LogManager logManager = new LogManager(logDirs(), settings, scheduler, time, logDirFailures);
        stops.add(Step.LOG_MANAGER, logManager::shutdown);
        logManager.lockAndVerifyDirs(zooKeeper.clusterId(), properties.id());
        return new BrokerComponents.Storage(scheduler, logManager, logDirFailures);
    }

    /** The log directories, as files. */
    List<File> logDirs() {
        return properties.logDirPaths().stream().map(Path::toFile).toList();
    }

    /**
     * Phase 3: logs loaded and recovered, then everything else built and started, up to the
     * listeners bound, the registration in ZooKeeper and the controller candidacy.
     */
    BrokerComponents loadLogsAndStart(BrokerComponents.ZooKeeper zooKeeper, BrokerComponents.Storage storage)
            throws IOException {
        KafkaZkClient zkClient = zooKeeper.client();
        DefaultScheduler scheduler = storage.scheduler();
        LogManager logManager = storage.logManager();
        BrokerConfigManager brokerConfigs = new BrokerConfigManager(zkClient, dynamicConfig, properties.id());
        brokerConfigs.load(); // the dynamic topic defaults apply from the first loaded segment on
        // One ZooKeeper read per topic, not per partition (a broker restarting on 1,000 partitions of a topic).
        Map<String, LogConfig> loadedTopicConfigs = new ConcurrentHashMap<>();
        logManager.loadLogs(topic -> loadedTopicConfigs.computeIfAbsent(topic, t -> logConfigFromZooKeeper(zkClient, t)));

        MetadataCache metadataCache = new MetadataCache(zkClient);
        stops.add(Step.METADATA_CACHE, metadataCache::close);
        BrokerEpoch brokerEpoch = new BrokerEpoch();
        ZkIsrUpdater isrUpdater = new ZkIsrUpdater(zkClient, properties.id());
        stops.add(Step.ISR_UPDATER, isrUpdater::close);
        String interBrokerListener = properties.interBrokerListener();
        Predicate<String> topicExists = topic -> metadataCache.topic(topic).isPresent();
        BrokerTopicStats topicStats = new BrokerTopicStats(registry, topicExists);
        ReplicationQuotas replicationQuotas = ReplicationQuotas.create(time);
        Runnable applyReplicationThrottles = () -> {
            try {
                replicationQuotas.leader().updateQuota(
                    dynamicConfig.brokerLevelLong(DynamicBrokerConfig.LEADER_REPLICATION_THROTTLED_RATE));
                replicationQuotas.follower().updateQuota(
                    dynamicConfig.brokerLevelLong(DynamicBrokerConfig.FOLLOWER_REPLICATION_THROTTLED_RATE));
            } catch (RuntimeException e) {
                // A value written to ZooKeeper by hand that does not parse: the throttles stay as they were.
                log.error("Ignoring the replication throttle rates in the dynamic broker configs: {}", e.getMessage());
            }
        };
        applyReplicationThrottles.run();
        dynamicConfig.addListener(applyReplicationThrottles);
        ReplicaComponents replicas = ReplicaComponents.build(new ReplicaComponents.Settings(properties.id(),
                topic -> logConfigOf(zkClient, metadataCache, topic), isrUpdater, properties.replicaLagTimeMaxMs(),
                dynamicConfig.brokerLevelInt("num.replica.fetchers"), ReplicaFetcherManager.config(properties.replicaFetchWaitMaxMs(),
                    properties.replicaFetchMinBytes(), properties.replicaFetchMaxBytes(),
                    properties.replicaFetchResponseMaxBytes(), properties.replicaFetchBackoffMs(),
                    properties.replicaSocketTimeoutMs(), interBrokerListener, interBrokerClientConfigs()),
                id -> metadataCache.broker(id).flatMap(b -> b.endPoint(interBrokerListener))
                    .map(e -> new Node(id, e.host(), e.port())),
                topicStats,
                properties.replicaSelectorClass() == null || properties.replicaSelectorClass().isBlank() ? null
                    : replicaSelector(properties.replicaSelectorClass()), replicationQuotas),
            logManager, metadataCache, brokerEpoch, time);
        ReplicaManager replicaManager = replicas.replicaManager();
        stops.add(Step.REPLICA_MANAGER, replicaManager::shutdown);
        Controller controller = new Controller(properties.id(), zkClient, metadataCache,
            topic -> logConfigFromZooKeeper(zkClient, topic).uncleanLeaderElectionEnable(),
            new Controller.Config(properties.autoLeaderRebalanceEnable(),
                properties.leaderImbalanceCheckIntervalSeconds() * 1000L,
                properties.leaderImbalancePerBrokerPercentage()), time);
        stops.add(Step.CONTROLLER, controller::close);
        String forwarderListener = properties.interBrokerListener();
        ControllerForwarder forwarder = new ControllerForwarder(properties.id(), metadataCache::controllerId,
            new InterBrokerSender(ControllerForwarder.CLIENT_ID_PREFIX, id -> metadataCache.broker(id)
                .flatMap(b -> b.endPoint(forwarderListener)).map(e -> new Node(id, e.host(), e.port())),
                id -> new BrokerBlockingSender(ControllerForwarder.CLIENT_ID_PREFIX + properties.id(), forwarderListener,
                    interBrokerClientConfigs(), properties.requestTimeoutMs(), 100, time)));
        stops.add(Step.CONTROLLER, forwarder::close);
        GroupCoordinatorFactory groupFactory = new GroupCoordinatorFactory(properties, shareGroups);
        GroupConfigManager groupConfigs = new GroupConfigManager(zkClient, groupFactory.groupConfigDefaults());
        stops.add(Step.ACL_STORE, groupConfigs::close);
        AdminManager adminManager = new AdminManager(zkClient, metadataCache, dynamicConfig, brokerConfigs,
            properties.numPartitions(), properties.defaultReplicationFactor(), properties.deleteTopicEnable(),
            new ReplicaAssignor(new Random()));
        ShareComponents shares = ShareComponentsFactory.create(shareGroups, replicaManager, metadataCache, adminManager,
            groupConfigs, scheduler, new ShareComponentsFactory.InterBroker(properties.id(), interBrokerListener,
                interBrokerClientConfigs(), properties.requestTimeoutMs()), registry, time);
        stops.add(Step.SHARE_COORDINATOR, shares::close);
        ShareGroupStates shareStates = shares.groupStates();
        GroupCoordinator groupCoordinator = groupFactory.coordinator(replicaManager, metadataCache, groupConfigs,
            shares::memberLeft, shareStates, time);
        stops.add(Step.GROUP_COORDINATOR, groupCoordinator::shutdown);
        replicaManager.addLeadershipListener(groupCoordinator);
        // A deleted topic's share-group state goes with it (KIP-932), from the groups this broker coordinates.
        // Likewise its committed offsets (Kafka's onPartitionsDeleted), removed with tombstones on this
        // metadata event thread, so a commit after the deletion (the topic created again) is kept.
        ShareGroupOffsets shareGroupOffsets = groupCoordinator.modernGroups().shareGroupOffsets(shareStates, time);
        DeletedTopicOffsets deletedTopicOffsets = groupCoordinator.deletedTopicOffsets();
        metadataCache.addListener(new MetadataListener() {
            @Override
            public void onTopicRemoved(String topic) {
                shareGroupOffsets.onTopicsDeleted();
                deletedTopicOffsets.onTopicDeleted(topic);
            }
        });
        ZkProducerIdManager producerIds = new ZkProducerIdManager(properties.id(), zkClient);
        TransactionComponents transactions = new TransactionComponents(new TransactionComponents.Settings(
                properties.id(), properties.transactionStateLogNumPartitions(), properties.transactionMaxTimeoutMs(),
                properties.requestTimeoutMs(), properties.transactionAbortTimedOutTransactionCleanupIntervalMs(),
                properties.transactionalIdExpirationMs(), properties.transactionRemoveExpiredTransactionCleanupIntervalMs(),
                properties.interBrokerListener(), interBrokerClientConfigs()),
            replicaManager, metadataCache, groupCoordinator, producerIds, new TransactionMetrics(registry), time);
        stops.add(Step.TRANSACTION_COORDINATOR, transactions::close);
        replicaManager.addLeadershipListener(transactions);
        metadataCache.addListener(replicas.stateChanges());
        dynamicConfig.addListener(replicas.stateChanges()::reapplyLogConfigs);
        metadataCache.addListener(new MetadataListener() {
            @Override
            public void onBrokerConfigChanged(String entity, Map<String, String> configs) {
                dynamicConfig.update(entity, configs);
            }
        });
        metadataCache.addListener(controller);

        RequestChannel requestChannel = new RequestChannel(properties.queuedMaxRequests());
        RequestHandlerPool requestHandlerPool = new RequestHandlerPool(requestChannel,
            dynamicConfig.brokerLevelInt("num.io.threads"), "broker-" + properties.id() + "-request-handler-");
        stops.add(Step.REQUEST_HANDLERS, () -> requestHandlerPool.shutdown(REQUEST_HANDLER_SHUTDOWN_TIMEOUT_MS));
        DynamicThreadPools.bind(dynamicConfig, requestHandlerPool, replicaManager.fetcherManager(), scheduler,
            logManager.cleaner());
        if (!securityBootstrap.isEmpty()) {
            securityBootstrap.apply(zkClient); // before the stores load and the listeners bind
        }
        ScramCredentialStore scramCredentialStore = new ScramCredentialStore(zkClient, time);
        stops.add(Step.SCRAM_CREDENTIAL_STORE, scramCredentialStore::close);
        AclStore aclStore = new AclStore(zkClient, time);
        stops.add(Step.ACL_STORE, aclStore::close);
        FeatureManager features = new FeatureManager(zkClient, metadataCache, properties.id(), BrokerFeatures.CURRENT);
        features.ensureCreated();
        FetchManager fetchManager = new FetchManager(time, new FetchSessionCache(
            properties.maxIncrementalFetchSessionCacheSlots(), FetchManager.MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS));
        ClientQuotaStore clientQuotaStore = new ClientQuotaStore(zkClient);
        stops.add(Step.ACL_STORE, clientQuotaStore::close);
        ClientQuotas clientQuotas = ClientQuotas.create(clientQuotaStore, properties.quotaWindowNum(),
            properties.quotaWindowSizeSeconds(), time, registry);
        KafkaApis apis = new KafkaApis(ApiHandlers.create(properties, security, metadataCache, replicaManager, fetchManager,
            clientQuotas, adminManager, producerIds, groupCoordinator, groupConfigs, transactions, shares, controller, forwarder, features, scramCredentialStore, aclStore, authorizer,
            // Resumed work queues like a request; when the queue is full it runs where it resumed.
            task -> {
                if (!requestChannel.offer(task)) {
                    task.run();
                }
            }, refusals, time),
            requestMetrics, refusals, clientQuotas.request(), time);

        metadataCache.start(zooKeeper.clusterId(), properties.zookeeperConnectionTimeoutMs());
        scramCredentialStore.start(properties.zookeeperConnectionTimeoutMs());
        aclStore.start(properties.zookeeperConnectionTimeoutMs());
        clientQuotaStore.start(properties.zookeeperConnectionTimeoutMs());
        groupConfigs.start(properties.zookeeperConnectionTimeoutMs());
        // The authorizer holds every ACL before the listeners bind, and follows changes from here on.
        aclStore.addListener(authorizer::aclsChanged);
        replicas.stateChanges().removeStrayLogs();
        replicaManager.startup(scheduler);
        logManager.startup();
        groupCoordinator.startup();
        transactions.start();

        SslStoreWatcher sslStoreWatcher = security.sslReloadIntervalMs() > 0
            ? new SslStoreWatcher(security, registry) : null;
        if (sslStoreWatcher != null) {
            sslStoreWatcher.alsoReload("replica fetchers", replicaManager.fetcherManager()::reloadSslStores);
        }
        ConnectionQuotas connectionQuotas = new ConnectionQuotas(DynamicListenerSettings.connectionLimits(dynamicConfig),
            properties.interBrokerListener(), properties.quotaWindowNum(), properties.quotaWindowSizeSeconds(),
            properties.refusedRequestLogIntervalMs(), time, registry);
        stops.add(Step.CONNECTION_QUOTAS, connectionQuotas::close);
        DynamicListenerSettings.bindConnectionLimits(dynamicConfig, connectionQuotas);
        List<ListenerSecurity> listenerSecurity = new ArrayList<>();
        List<SocketServer> listeners = new ArrayList<>();
        List<EndPoint> boundEndPoints = new ArrayList<>();
        for (EndPoint endPoint : properties.listenerEndPoints()) {
            ListenerSecurity secured = new ListenerSecurity(endPoint, security, scramCredentialStore.credentialCache(),
                registry, time);
            listenerSecurity.add(secured);
            stops.add(Step.LISTENER_SECURITY, secured::close);
            if (secured.usesTls()) {
                DynamicListenerSettings.bindSsl(dynamicConfig, secured);
            }
            if (sslStoreWatcher != null && secured.usesTls()) {
                sslStoreWatcher.watch(secured);
            }
            SocketServer server = new SocketServer(endPoint, properties.numNetworkThreads(),
                properties.socketRequestMaxBytes(), properties.connectionsMaxIdleMs(), apis, requestChannel, secured,
                connectionQuotas);
            listeners.add(server);
            stops.add(Step.LISTENERS, server::close);
            boundEndPoints.add(endPoint.withPort(server.start()));
        }
        if (sslStoreWatcher != null && sslStoreWatcher.hasWork()) {
            sslStoreWatcher.start(scheduler, security.sslReloadIntervalMs());
        }
        BrokerRegistration registration = new BrokerRegistration(zkClient, new BrokerInfo(properties.id(),
            BrokerListeners.advertised(properties, boundEndPoints),
            properties.rack(), -1), properties.zookeeperSessionTimeoutMs(), brokerEpoch, time);
        stops.add(Step.REGISTRATION, registration::close);
        registration.register();
        replicas.stateChanges().onRegistered();
        LogDirFailureHandler logDirFailureHandler = new LogDirFailureHandler(storage.logDirFailures(),
            replicas.logDirFailures()::takeOffline, registration::updateOfflineReplicas,
            "broker-" + properties.id() + "-log-dir-failure-handler");
        stops.add(Step.LOG_DIR_FAILURE_HANDLER, logDirFailureHandler::close);
        logDirFailureHandler.start();
        controller.startup();
        LastStableOffsetLagGauges lsoLag = new LastStableOffsetLagGauges(registry, replicaManager::leaderPartitions,
            LSO_LAG_REFRESH_MS, "broker-" + properties.id() + "-lso-lag-metrics");
        stops.add(Step.CONSUMER_LAG_METRICS, lsoLag::close);
        lsoLag.start();
        Optional<ConsumerLagMetrics> consumerLagMetrics = Optional.empty();
        if (properties.consumerLagMetricsIntervalMs() > 0) {
            String self = BrokerListeners.interBrokerBootstrap(properties, boundEndPoints);
            ConsumerLagMetrics lag = new ConsumerLagMetrics(groupCoordinator,
                () -> Admin.create(ConsumerLagMetrics.adminConfig(self, "broker-" + properties.id() + "-consumer-lag",
                    CONSUMER_LAG_REQUEST_TIMEOUT_MS, interBrokerClientConfigs())),
                topicExists, registry, properties.consumerLagMetricsIntervalMs(), CONSUMER_LAG_REQUEST_TIMEOUT_MS);
            stops.add(Step.CONSUMER_LAG_METRICS, lag::close);
            lag.start();
            consumerLagMetrics = Optional.of(lag);
        }
        return new BrokerComponents(zooKeeper, storage, metadataCache, isrUpdater, replicas, controller,
            groupCoordinator, requestChannel, requestHandlerPool, fetchManager, scramCredentialStore, aclStore, listenerSecurity,
            connectionQuotas, listeners, boundEndPoints, registration, consumerLagMetrics, ShutdownSequence.of(stops));
    }

    /** The clean stop of whatever the phases run so far built (all of it, after {@link #loadLogsAndStart}). */
    ShutdownSequence shutdownSoFar() {
        return ShutdownSequence.of(stops);
    }

    /**
     * Kafka client configs of this broker's own connections over the inter-broker listener
     * (replica fetchers, the consumer lag reader): its security protocol, TLS and SASL login.
     */
    private Map<String, Object> interBrokerClientConfigs() {
        String listener = properties.interBrokerListener();
        EndPoint endPoint = properties.listenerEndPoints().stream().filter(e -> e.listenerName().equals(listener))
            .findFirst().orElseThrow();
        return security.clientConfigs(endPoint.securityProtocol(), listener);
    }

    private static ReplicaSelector replicaSelector(String className) {
        try {
            Object selector = Class.forName(className.trim()).getDeclaredConstructor().newInstance();
            if (!(selector instanceof ReplicaSelector replicaSelector)) {
                throw new IllegalArgumentException(className + " is not a " + ReplicaSelector.class);
            }
            replicaSelector.configure(Map.of());
            return replicaSelector;
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("broker.replica-selector-class " + className + " cannot be created: " + e, e);
        }
    }

    /**
     * A topic's log config: its overrides as the metadata watch last delivered them, else as ZooKeeper
     * holds them (a new topic whose config node the watch has not delivered yet). A read per partition
     * made creating a topic of 1,000 partitions wait for 1,000 ZooKeeper round trips; a config changed
     * since is applied when the watch delivers it ({@code onTopicConfigChanged}).
     */
    private LogConfig logConfigOf(KafkaZkClient zkClient, MetadataCache metadataCache, String topic) {
        return metadataCache.knownTopicConfig(topic).map(overrides -> logConfig(topic, overrides))
            .orElseGet(() -> logConfigFromZooKeeper(zkClient, topic));
    }

    private LogConfig logConfigFromZooKeeper(KafkaZkClient zkClient, String topic) {
        return logConfig(topic, zkClient.getTopicConfig(topic).config());
    }

    private LogConfig logConfig(String topic, Map<String, String> overrides) {
        try {
            return LogConfig.create(dynamicConfig.logConfigDefaults(), overrides);
        } catch (RuntimeException e) {
            log.error("Topic {} has an invalid config {} in ZooKeeper ({}); using the broker defaults", topic, overrides,
                e.getMessage());
            return LogConfig.create(dynamicConfig.logConfigDefaults(), Map.of());
        }
    }
}
