package io.tributary.broker;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.api.ApiHandlers;
import io.tributary.broker.api.KafkaApis;
import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.BrokerInfo;
import io.tributary.broker.cluster.BrokerRegistration;
import io.tributary.broker.cluster.BrokerState;
import io.tributary.broker.cluster.Controller;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.ReplicaAssignor;
import io.tributary.broker.cluster.ZkProducerIdManager;
import io.tributary.broker.config.BrokerBootstrapProperties;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.group.ConsumerLagMetrics;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.health.BrokerStatus;
import io.tributary.broker.log.LogCleaner;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.metrics.BrokerTopicStats;
import io.tributary.broker.metrics.RequestMetrics;
import io.tributary.broker.network.RequestChannel;
import io.tributary.broker.network.RequestHandlerPool;
import io.tributary.broker.network.SocketServer;
import io.tributary.broker.replica.LogDirFailureHandler;
import io.tributary.broker.replica.ReplicaComponents;
import io.tributary.broker.replica.ReplicaFetcherManager;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.replica.ReplicaStateChanges;
import io.tributary.broker.replica.ZkIsrUpdater;
import io.tributary.broker.scheduler.DefaultScheduler;
import io.tributary.broker.security.AclStore;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.security.ListenerSecurity;
import io.tributary.broker.security.ScramCredentialStore;
import io.tributary.broker.security.SecurityBootstrap;
import io.tributary.broker.security.SslStoreWatcher;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker, wired from plain Java parts (no Spring inside, so tests can run several in one
 * JVM): embedded or external ZooKeeper, log manager, metadata cache, replica manager,
 * controller candidacy, group coordinator, request handlers and the Kafka listener.
 *
 * <p>Start order: ZooKeeper, logs loaded and recovered, bootstrap SCRAM users and ACLs written when
 * absent ({@link SecurityBootstrap}), metadata loaded (partitions this broker leads become leaders),
 * listener bound, registration in ZooKeeper, controller election. Stop
 * order is the reverse; logs are flushed, checkpointed and marked clean last.
 *
 * <p>Its {@link BrokerState} is published to listeners as it changes; its meters go to the
 * registry given (Kafka's names, see {@code io.tributary.broker.metrics}).
 *
 * <p>Over 500 lines on purpose: it is the broker's composition root, and the start, shutdown and
 * crash sequences of some twenty parts (stores, authorizer and listener security included) are
 * only checkable when read in one place, in order. It holds no protocol or storage logic.
 *
 * <p>Thread-safe for start and stop.
 */
public final class BrokerServer implements BrokerStatus {

    private static final Logger log = LoggerFactory.getLogger(BrokerServer.class);

    private final BrokerProperties properties;
    private final BrokerSecurityProperties security;
    private final BrokerAuthorizer authorizer;
    private final SecurityBootstrap securityBootstrap;
    private final List<ListenerSecurity> listenerSecurity = new ArrayList<>();
    private final Time time;
    private final Map<String, Object> logConfigDefaults;
    private EmbeddedZooKeeper embeddedZooKeeper;
    private KafkaZkClient zkClient;
    private DefaultScheduler scheduler;
    private LogManager logManager;
    private MetadataCache metadataCache;
    private ReplicaManager replicaManager;
    private ReplicaStateChanges replicaStateChanges;
    private LogDirFailureHandler logDirFailures;
    private GroupCoordinator groupCoordinator;
    private Controller controller;
    private ZkIsrUpdater isrUpdater;
    private ScramCredentialStore scramCredentialStore;
    private AclStore aclStore;
    private BrokerRegistration registration;
    private RequestChannel requestChannel;
    private RequestHandlerPool requestHandlerPool;
    private final List<SocketServer> listeners = new ArrayList<>();
    private final List<EndPoint> boundEndPoints = new ArrayList<>();
    private final MeterRegistry registry;
    private final BrokerTopicStats topicStats;
    private final RequestMetrics requestMetrics;
    private final List<java.util.function.Consumer<BrokerState>> stateListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private ConsumerLagMetrics consumerLagMetrics;
    private volatile BrokerState state = BrokerState.NOT_RUNNING;
    private volatile boolean caughtUp;
    private volatile boolean started;
    private volatile boolean stopped;

    /** A broker whose meters go to a registry of its own (tests running several brokers in one JVM). */
    public BrokerServer(BrokerProperties properties, Time time) {
        this(properties, time, new SimpleMeterRegistry());
    }

    /**
     * @param registry where its per-topic, per-request and consumer-lag meters are registered
     */
    public BrokerServer(BrokerProperties properties, Time time, MeterRegistry registry) {
        this(properties, BrokerSecurityProperties.defaults(), time, registry);
    }

    /**
     * @param security TLS and SASL settings of the secured listeners and of this broker's own connections
     * @param registry where its per-topic, per-request and consumer-lag meters are registered
     */
    public BrokerServer(BrokerProperties properties, BrokerSecurityProperties security, Time time,
                        MeterRegistry registry) {
        this(properties, security, BrokerBootstrapProperties.none(), time, registry);
    }

    /**
     * @param security  TLS and SASL settings of the secured listeners and of this broker's own connections
     * @param bootstrap SCRAM users and ACLs written to ZooKeeper at start when absent ({@link SecurityBootstrap})
     * @param registry  where its per-topic, per-request and consumer-lag meters are registered
     * @throws IllegalArgumentException when a bootstrap setting is malformed (named in the message)
     */
    public BrokerServer(BrokerProperties properties, BrokerSecurityProperties security,
                        BrokerBootstrapProperties bootstrap, Time time, MeterRegistry registry) {
        this.securityBootstrap = SecurityBootstrap.from(bootstrap);
        this.properties = properties;
        this.security = security;
        this.authorizer = BrokerAuthorizer.fromSettings(security.authorizerClassName(), security.superUsers(),
            security.allowEveryoneIfNoAclFound());
        this.time = time;
        this.registry = registry;
        this.logConfigDefaults = LogConfig.brokerDefaults(properties);
        LogConfig.create(logConfigDefaults, Map.of());
        this.topicStats = new BrokerTopicStats(registry);
        this.requestMetrics = new RequestMetrics(registry);
        BrokerMeters.bind(this, registry);
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

    /** Where this broker's meters are registered. */
    public MeterRegistry meterRegistry() {
        return registry;
    }

    /** Where this broker is in its life. */
    @Override
    public BrokerState state() {
        return state;
    }

    /**
     * Whether the broker is running and has, since it started, been in the ISR of every partition
     * it follows whose leader is alive. Once true it stays true until the broker stops, so a
     * follower lagging later does not flap; what it gates is a rolling restart, whose next broker
     * must wait until this one has caught up, or partitions would drop below min.insync.replicas
     * (and, with the next restart, go offline).
     */
    @Override
    public boolean hasCaughtUp() {
        if (state != BrokerState.RUNNING) {
            return false;
        }
        if (!caughtUp && replicaManager.followerPartitionsOutOfSync() == 0) {
            caughtUp = true;
        }
        return caughtUp;
    }

    /** Partitions this broker follows with a live leader and is not in the ISR of (0 when not running). */
    @Override
    public int followerPartitionsOutOfSync() {
        return state == BrokerState.RUNNING ? replicaManager.followerPartitionsOutOfSync() : 0;
    }

    /**
     * Calls {@code listener} with each new state, on the thread that changes it (start or stop),
     * before the broker goes on.
     */
    public void addStateListener(java.util.function.Consumer<BrokerState> listener) {
        stateListeners.add(listener);
    }

    private void transitionTo(BrokerState next) {
        state = next;
        for (java.util.function.Consumer<BrokerState> listener : stateListeners) {
            try {
                listener.accept(next);
            } catch (RuntimeException e) {
                log.warn("A broker state listener failed on {}", next, e);
            }
        }
    }

    /**
     * Starts the broker.
     *
     * @throws IllegalStateException when it cannot start (port taken, ZooKeeper unreachable, log directory in use);
     *                               whatever was started is stopped again
     */
    public synchronized void startup() {
        if (started) {
            return;
        }
        long start = time.milliseconds();
        caughtUp = false;
        transitionTo(BrokerState.STARTING);
        try {
            String connect = properties.zookeeperConnect();
            if (properties.useEmbeddedZookeeper()) {
                embeddedZooKeeper = EmbeddedZooKeeper.start(properties.embeddedZookeeperDir().toFile(),
                    properties.embeddedZookeeperPort(), properties.embeddedZookeeperTickTimeMs(), true);
                connect = embeddedZooKeeper.connectString();
            }
            zkClient = KafkaZkClient.connect(connect, properties.zookeeperSessionTimeoutMs(),
                properties.zookeeperConnectionTimeoutMs(), security.zookeeperDigestCredentials(),
                security.zookeeperSetAcl());
            zkClient.ensurePersistentPaths();
            String clusterId = zkClient.getOrCreateClusterId();

            scheduler = new DefaultScheduler(2, "broker-" + properties.id() + "-scheduler");
            List<File> logDirs = properties.logDirPaths().stream().map(java.nio.file.Path::toFile).toList();
            logManager = new LogManager(logDirs, new LogManager.Settings(properties.numRecoveryThreadsPerDataDir(),
                properties.logRetentionCheckIntervalMs(), properties.logFlushSchedulerIntervalMs(),
                properties.logFlushOffsetCheckpointIntervalMs(), properties.replicaHighWatermarkCheckpointIntervalMs(),
                properties.producerIdExpirationMs(), properties.producerIdExpirationCheckIntervalMs()), scheduler, time);
            if (properties.logCleanerEnable()) {
                logManager.enableCleaner(new LogCleaner.Config(properties.logCleanerThreads(),
                    properties.logCleanerDedupeBufferSize(), properties.logCleanerIoBufferSize(),
                    properties.logCleanerBackoffMs()));
            }
            logManager.lockAndVerifyDirs(clusterId, properties.id());
            transitionTo(BrokerState.RECOVERY);
            logManager.loadLogs(this::logConfigFromZooKeeper);

            metadataCache = new MetadataCache(zkClient);
            isrUpdater = new ZkIsrUpdater(zkClient, properties.id());
            String interBrokerListener = properties.interBrokerListener();
            MetadataCache brokers = metadataCache;
            MetadataCache topics = metadataCache;
            java.util.function.Predicate<String> topicExists = topic -> topics.topic(topic).isPresent();
            topicStats.setTopicFilter(topicExists);
            ReplicaComponents replicas = ReplicaComponents.build(new ReplicaComponents.Settings(properties.id(),
                    this::logConfigFromZooKeeper, isrUpdater, properties.replicaLagTimeMaxMs(),
                    properties.numReplicaFetchers(), ReplicaFetcherManager.config(properties.replicaFetchWaitMaxMs(),
                        properties.replicaFetchMinBytes(), properties.replicaFetchMaxBytes(),
                        properties.replicaFetchResponseMaxBytes(), properties.replicaFetchBackoffMs(),
                        properties.replicaSocketTimeoutMs(), interBrokerListener, interBrokerClientConfigs()),
                    id -> brokers.broker(id).flatMap(b -> b.endPoint(interBrokerListener))
                        .map(e -> new Node(id, e.host(), e.port())),
                    topicStats,
                    properties.replicaSelectorClass() == null || properties.replicaSelectorClass().isBlank() ? null
                        : replicaSelector(properties.replicaSelectorClass())),
                logManager, metadataCache, time);
            replicaManager = replicas.replicaManager();
            replicaStateChanges = replicas.stateChanges();
            logDirFailures = replicas.logDirFailures();
            controller = new Controller(properties.id(), zkClient, metadataCache,
                topic -> logConfigFromZooKeeper(topic).uncleanLeaderElectionEnable(),
                new Controller.Config(properties.autoLeaderRebalanceEnable(),
                    properties.leaderImbalanceCheckIntervalSeconds() * 1000L,
                    properties.leaderImbalancePerBrokerPercentage()), time);
            groupCoordinator = new GroupCoordinator(replicaManager, groupCoordinatorConfig(properties), time);
            replicaManager.addLeadershipListener(groupCoordinator);
            metadataCache.addListener(replicaStateChanges);
            metadataCache.addListener(controller);

            requestChannel = new RequestChannel(properties.queuedMaxRequests());
            requestHandlerPool = new RequestHandlerPool(requestChannel, properties.numIoThreads(),
                "broker-" + properties.id() + "-request-handler-");
            AdminManager adminManager = new AdminManager(zkClient, metadataCache, logConfigDefaults,
                properties.numPartitions(), properties.defaultReplicationFactor(), properties.deleteTopicEnable(),
                new ReplicaAssignor(new Random()));
            if (!securityBootstrap.isEmpty()) {
                securityBootstrap.apply(zkClient); // before the stores load and the listeners bind
            }
            scramCredentialStore = new ScramCredentialStore(zkClient, time);
            aclStore = new AclStore(zkClient, time);
            KafkaApis apis = new KafkaApis(ApiHandlers.create(properties, metadataCache, replicaManager, adminManager,
                new ZkProducerIdManager(properties.id(), zkClient), groupCoordinator, controller, scramCredentialStore,
                aclStore, authorizer),
                requestMetrics, time);

            metadataCache.start(clusterId, properties.zookeeperConnectionTimeoutMs());
            scramCredentialStore.start(properties.zookeeperConnectionTimeoutMs());
            aclStore.start(properties.zookeeperConnectionTimeoutMs());
            // The authorizer holds every ACL before the listeners bind, and follows changes from here on.
            aclStore.addListener(authorizer::aclsChanged);
            replicaStateChanges.removeStrayLogs();
            replicaManager.startup(scheduler);
            logManager.startup();
            groupCoordinator.startup();

            SslStoreWatcher sslStoreWatcher = security.sslReloadIntervalMs() > 0
                ? new SslStoreWatcher(security, registry) : null;
            if (sslStoreWatcher != null) {
                sslStoreWatcher.alsoReload("replica fetchers", replicaManager.fetcherManager()::reloadSslStores);
            }
            for (EndPoint endPoint : properties.listenerEndPoints()) {
                ListenerSecurity secured = new ListenerSecurity(endPoint, security, scramCredentialStore.credentialCache(),
                    registry);
                listenerSecurity.add(secured);
                if (sslStoreWatcher != null && secured.usesTls()) {
                    sslStoreWatcher.watch(secured);
                }
                SocketServer server = new SocketServer(endPoint, properties.numNetworkThreads(),
                    properties.socketRequestMaxBytes(), properties.connectionsMaxIdleMs(), apis, requestChannel, secured);
                listeners.add(server);
                boundEndPoints.add(endPoint.withPort(server.start()));
            }
            if (sslStoreWatcher != null && sslStoreWatcher.hasWork()) {
                sslStoreWatcher.start(scheduler, security.sslReloadIntervalMs());
            }
            registration = new BrokerRegistration(zkClient, new BrokerInfo(properties.id(),
                BrokerListeners.advertised(properties, boundEndPoints),
                properties.rack(), -1), properties.zookeeperSessionTimeoutMs(), time);
            registration.register();
            BrokerRegistration published = registration;
            logDirFailures.setOfflineReplicasListener(offline -> {
                try {
                    published.updateOfflineReplicas(offline);
                } catch (RuntimeException e) {
                    log.error("Could not publish the offline replicas {} of broker {}", offline, properties.id(), e);
                }
            });
            controller.startup();
            if (properties.consumerLagMetricsIntervalMs() > 0) {
                String self = BrokerListeners.interBrokerBootstrap(properties, boundEndPoints);
                consumerLagMetrics = new ConsumerLagMetrics(groupCoordinator,
                    () -> org.apache.kafka.clients.admin.Admin.create(ConsumerLagMetrics.adminConfig(self,
                        "broker-" + properties.id() + "-consumer-lag", 10_000, interBrokerClientConfigs())),
                    topicExists, registry, properties.consumerLagMetricsIntervalMs(), 10_000);
                consumerLagMetrics.start();
            }
            started = true;
            transitionTo(BrokerState.RUNNING);
            log.info("Broker {} started in {} ms: cluster {}, listeners {}, log dirs {}", properties.id(),
                time.milliseconds() - start, clusterId, boundEndPoints.stream().map(EndPoint::connectionString).toList(),
                logDirs);
        } catch (IOException | RuntimeException e) {
            log.error("Broker {} failed to start: {}", properties.id(), e.getMessage());
            shutdown();
            throw e instanceof IllegalStateException ise ? ise : new IllegalStateException("Broker failed to start: "
                + e.getMessage(), e);
        }
    }

    private static org.apache.kafka.common.replica.ReplicaSelector replicaSelector(String className) {
        try {
            Object selector = Class.forName(className.trim()).getDeclaredConstructor().newInstance();
            if (!(selector instanceof org.apache.kafka.common.replica.ReplicaSelector replicaSelector)) {
                throw new IllegalArgumentException(className + " is not a " + org.apache.kafka.common.replica.ReplicaSelector.class);
            }
            replicaSelector.configure(Map.of());
            return replicaSelector;
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("broker.replica-selector-class " + className + " cannot be created: " + e, e);
        }
    }

    private static GroupCoordinator.Config groupCoordinatorConfig(BrokerProperties p) {
        return new GroupCoordinator.Config(p.offsetsTopicNumPartitions(), p.groupMinSessionTimeoutMs(),
            p.groupMaxSessionTimeoutMs(), p.groupInitialRebalanceDelayMs(), p.groupMaxSize(), p.offsetsCommitTimeoutMs(),
            p.offsetMetadataMaxBytes(), p.offsetsRetentionMinutes() * 60_000L, p.offsetsRetentionCheckIntervalMs());
    }

    private LogConfig logConfigFromZooKeeper(String topic) {
        Map<String, String> overrides = zkClient.getTopicConfig(topic).config();
        try {
            return LogConfig.create(logConfigDefaults, overrides);
        } catch (RuntimeException e) {
            log.error("Topic {} has an invalid config {} in ZooKeeper ({}); using the broker defaults", topic, overrides,
                e.getMessage());
            return LogConfig.create(logConfigDefaults, Map.of());
        }
    }

    /** Stops the broker: network first, logs flushed and marked clean last. Idempotent. */
    public synchronized void shutdown() {
        if (stopped) {
            return;
        }
        stopped = true;
        log.info("Broker {} shutting down", properties.id());
        if (started && properties.controlledShutdownEnable()) {
            transitionTo(BrokerState.PENDING_CONTROLLED_SHUTDOWN);
            controlledShutdown();
        }
        transitionTo(BrokerState.SHUTTING_DOWN);
        closeQuietly("consumer lag metrics", consumerLagMetrics == null ? null : consumerLagMetrics::close);
        closeQuietly("controller", controller == null ? null : controller::close);
        closeQuietly("registration", registration == null ? null : registration::close);
        for (SocketServer server : listeners) {
            closeQuietly("listener", server::close);
        }
        for (ListenerSecurity secured : listenerSecurity) {
            closeQuietly("listener security", secured::close);
        }
        if (requestHandlerPool != null) {
            requestHandlerPool.shutdown(10_000);
        }
        // Stop the metadata watches first, so no role change reopens a log while the logs close.
        closeQuietly("metadata cache", metadataCache == null ? null : metadataCache::close);
        closeQuietly("SCRAM credential store", scramCredentialStore == null ? null : scramCredentialStore::close);
        closeQuietly("ACL store", aclStore == null ? null : aclStore::close);
        closeQuietly("group coordinator", groupCoordinator == null ? null : groupCoordinator::shutdown);
        closeQuietly("replica manager", replicaManager == null ? null : replicaManager::shutdown);
        closeQuietly("ISR updater", isrUpdater == null ? null : isrUpdater::close);
        closeQuietly("log manager", logManager == null ? null : logManager::shutdown);
        closeQuietly("scheduler", scheduler == null ? null : this::stopScheduler);
        closeQuietly("ZooKeeper client", zkClient == null ? null : zkClient::close);
        closeQuietly("embedded ZooKeeper", embeddedZooKeeper == null ? null : embeddedZooKeeper::close);
        transitionTo(BrokerState.NOT_RUNNING);
        log.info("Broker {} shut down", properties.id());
    }

    /**
     * Controlled shutdown: marks the registration as shutting down so the controller moves this
     * broker's leaderships to other in-sync replicas and takes it out of ISRs, waits (up to
     * {@code controlled.shutdown.max.retries} times {@code controlled.shutdown.retry.backoff.ms})
     * until it leads nothing another replica could lead and is in no other leader's ISR, then stops
     * copying. Until then it keeps serving and copying, so acks=all writes never wait for it;
     * clients see only NOT_LEADER_OR_FOLLOWER, which they retry.
     */
    private void controlledShutdown() {
        long start = time.milliseconds();
        try {
            registration.markControlledShutdown();
            long deadline = start + properties.controlledShutdownMaxRetries() * properties.controlledShutdownRetryBackoffMs();
            List<?> remaining = replicaManager.leadershipsToMove();
            while (!remaining.isEmpty() && time.milliseconds() < deadline) {
                time.sleep(50);
                remaining = replicaManager.leadershipsToMove();
            }
            replicaManager.stopFetchers();
            if (remaining.isEmpty()) {
                log.info("Controlled shutdown of broker {}: leaderships moved in {} ms", properties.id(),
                    time.milliseconds() - start);
            } else {
                log.warn("Controlled shutdown of broker {}: {} still led here after {} ms; stopping anyway",
                    properties.id(), remaining, time.milliseconds() - start);
            }
        } catch (RuntimeException e) {
            log.warn("Controlled shutdown of broker {} failed; stopping anyway: {}", properties.id(), e.toString());
        }
    }

    /**
     * Stops as a killed process would, for fault tests that run several brokers in one JVM: the
     * sockets close at once, the ZooKeeper session ends (its ephemeral nodes go, as when a session
     * expires), and the logs are left without flush, checkpoints or clean-shutdown marker, so
     * the next start recovers them. Nothing is handed over: no controlled shutdown.
     */
    public synchronized void crash() {
        if (stopped) {
            return;
        }
        stopped = true;
        log.warn("Broker {} crashing (simulated)", properties.id());
        closeQuietly("consumer lag metrics", consumerLagMetrics == null ? null : consumerLagMetrics::close);
        for (SocketServer server : listeners) {
            closeQuietly("listener", server::close);
        }
        for (ListenerSecurity secured : listenerSecurity) {
            closeQuietly("listener security", secured::close);
        }
        closeQuietly("ZooKeeper client", zkClient == null ? null : zkClient::close);
        closeQuietly("controller", controller == null ? null : controller::close);
        if (requestHandlerPool != null) {
            requestHandlerPool.close();
        }
        closeQuietly("metadata cache", metadataCache == null ? null : metadataCache::close);
        closeQuietly("SCRAM credential store", scramCredentialStore == null ? null : scramCredentialStore::close);
        closeQuietly("ACL store", aclStore == null ? null : aclStore::close);
        closeQuietly("replica manager", replicaManager == null ? null : replicaManager::shutdown);
        closeQuietly("ISR updater", isrUpdater == null ? null : isrUpdater::close);
        closeQuietly("group coordinator", groupCoordinator == null ? null : groupCoordinator::shutdown);
        closeQuietly("log manager", logManager == null ? null : logManager::crash);
        closeQuietly("scheduler", scheduler == null ? null : this::stopScheduler);
        closeQuietly("embedded ZooKeeper", embeddedZooKeeper == null ? null : embeddedZooKeeper::close);
        transitionTo(BrokerState.NOT_RUNNING);
    }

    private void stopScheduler() {
        try {
            scheduler.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(String what, Runnable close) {
        if (close == null) {
            return;
        }
        try {
            close.run();
        } catch (RuntimeException e) {
            log.warn("Error stopping the {}", what, e);
        }
    }

    @Override
    public BrokerProperties properties() {
        return properties;
    }

    /** The listeners as bound (with ephemeral ports resolved). */
    public List<EndPoint> boundEndPoints() {
        return List.copyOf(boundEndPoints);
    }

    /** {@code host:port} of the first listener, for clients' bootstrap.servers. */
    public String bootstrapServers() {
        EndPoint e = BrokerListeners.advertised(properties, boundEndPoints).get(0);
        return e.host() + ":" + e.port();
    }

    public boolean isStarted() {
        return started && !stopped;
    }

    /** Per-topic throughput counters. */
    /** Requests waiting for a request handler thread, for the {@code RequestQueueSize} gauge. */
    int requestQueueSize() {
        RequestChannel channel = requestChannel;
        return channel == null ? 0 : channel.size();
    }

    public BrokerTopicStats topicStats() {
        return topicStats;
    }

    public MetadataCache metadataCache() {
        return metadataCache;
    }

    public ReplicaManager replicaManager() {
        return replicaManager;
    }

    public LogManager logManager() {
        return logManager;
    }

    @Override
    public KafkaZkClient zkClient() {
        return zkClient;
    }

    public Controller controller() {
        return controller;
    }

    /** Decides what each principal may do: Kafka's StandardAuthorizer over the ACLs in ZooKeeper, or allow-all. */
    public BrokerAuthorizer authorizer() {
        return authorizer;
    }

    /** Users' SCRAM credentials: stored in ZooKeeper, managed by AlterUserScramCredentials. */
    public ScramCredentialStore scramCredentialStore() {
        return scramCredentialStore;
    }

    /** ACLs: stored in ZooKeeper in Kafka's layout, managed by CreateAcls and DeleteAcls, for the authorizer. */
    public AclStore aclStore() {
        return aclStore;
    }

    /**
     * The live SCRAM credentials for the SASL authenticator, one cache per mechanism name
     * ({@code SCRAM-SHA-256}, {@code SCRAM-SHA-512}), loaded before the listeners bind.
     */
    public CredentialCache credentialCache() {
        return scramCredentialStore.credentialCache();
    }

    /** The embedded ZooKeeper, if this broker started one. */
    public EmbeddedZooKeeper embeddedZooKeeper() {
        return embeddedZooKeeper;
    }
}
