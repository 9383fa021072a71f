package io.tributary.broker;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.audit.RefusedRequestLog;
import io.tributary.broker.cluster.BrokerState;
import io.tributary.broker.cluster.Controller;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.config.BrokerBootstrapProperties;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.ShareGroupProperties;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.fetchsession.FetchManager;
import io.tributary.broker.health.BrokerStatus;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.metrics.RequestMetrics;
import io.tributary.broker.network.ConnectionQuotas;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.AclStore;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.security.ScramCredentialStore;
import io.tributary.broker.security.SecurityBootstrap;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker, wired from plain Java parts (no Spring inside, so tests can run several in one
 * JVM): embedded or external ZooKeeper, log manager, metadata cache, replica manager,
 * controller candidacy, group coordinator, request handlers and the Kafka listener.
 *
 * <p>Its parts are built once, in start order, by {@link BrokerComponentsBuilder} into the
 * immutable {@link BrokerComponents}: ZooKeeper and the cluster id, then the log directories
 * locked (RECOVERY), then logs loaded, metadata, listeners, registration and controller election.
 * Stop order is {@link ShutdownSequence.Step}'s: network first, logs flushed, checkpointed and
 * marked clean near the end, the embedded ZooKeeper last.
 *
 * <p>Its {@link BrokerState} is published to listeners as it changes; its meters go to the
 * registry given (Kafka's names, see {@code io.tributary.broker.metrics}). A broker starts once:
 * to start again, create a new one on the same settings.
 *
 * <p>Thread-safe for start and stop; the getters may be called from any thread and return
 * {@code null} for a part not built yet.
 */
public final class BrokerServer implements BrokerStatus {

    private static final Logger log = LoggerFactory.getLogger(BrokerServer.class);

    /**
     * How often a controlled shutdown looks again whether this broker's leaderships have moved, ms.
     * It reads this broker's own partition states (no request), so polling often costs nothing and
     * ends the shutdown soon after the controller's last move; the bound of the whole wait is
     * Kafka's {@code controlled.shutdown.max.retries} times {@code controlled.shutdown.retry.backoff.ms}.
     */
    static final long CONTROLLED_SHUTDOWN_POLL_MS = 50;

    private final BrokerProperties properties;
    private final BrokerSecurityProperties security;
    private final ShareGroupProperties shareGroups;
    private final BrokerAuthorizer authorizer;
    private final RefusedRequestLog refusals;
    private final SecurityBootstrap securityBootstrap;
    private final Time time;
    private final Map<String, Object> logConfigDefaults;
    private final MeterRegistry registry;
    private final RequestMetrics requestMetrics;
    private final List<Consumer<BrokerState>> stateListeners = new CopyOnWriteArrayList<>();
    // Each set once, as its start phase ends (so health and tests see ZooKeeper and the logs during recovery).
    private volatile BrokerComponents.ZooKeeper zooKeeper;
    private volatile BrokerComponents.Storage storage;
    private volatile BrokerComponents components;
    private volatile BrokerState state = BrokerState.NOT_RUNNING;
    private volatile boolean caughtUp;
    private volatile boolean started;
    private boolean metersBound;
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
        this(properties, security, bootstrap, ShareGroupProperties.defaults(), time, registry);
    }

    /**
     * @param security    TLS and SASL settings of the secured listeners and of this broker's own connections
     * @param bootstrap   SCRAM users and ACLs written to ZooKeeper at start when absent ({@link SecurityBootstrap})
     * @param shareGroups the share-group settings (KIP-932, {@code group.share.*})
     * @param registry    where its per-topic, per-request and consumer-lag meters are registered
     * @throws IllegalArgumentException when a bootstrap setting is malformed (named in the message)
     */
    public BrokerServer(BrokerProperties properties, BrokerSecurityProperties security,
                        BrokerBootstrapProperties bootstrap, ShareGroupProperties shareGroups, Time time,
                        MeterRegistry registry) {
        this.shareGroups = shareGroups;
        this.securityBootstrap = SecurityBootstrap.from(bootstrap);
        this.properties = properties;
        this.security = security;
        this.refusals = new RefusedRequestLog(properties.refusedRequestLogIntervalMs(), time);
        this.authorizer = BrokerAuthorizer.fromSettings(security.authorizerClassName(), security.superUsers(),
            security.allowEveryoneIfNoAclFound(), refusals);
        this.time = time;
        this.registry = registry;
        this.logConfigDefaults = LogConfig.brokerDefaults(properties);
        LogConfig.create(logConfigDefaults, Map.of());
        this.requestMetrics = new RequestMetrics(registry);
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
        if (!caughtUp && components.replicaManager().followerPartitionsOutOfSync() == 0) {
            caughtUp = true;
        }
        return caughtUp;
    }

    /** Partitions this broker follows with a live leader and is not in the ISR of (0 when not running). */
    @Override
    public int followerPartitionsOutOfSync() {
        return state == BrokerState.RUNNING ? components.replicaManager().followerPartitionsOutOfSync() : 0;
    }

    /**
     * Calls {@code listener} with each new state, on the thread that changes it (start or stop),
     * before the broker goes on.
     */
    public void addStateListener(Consumer<BrokerState> listener) {
        stateListeners.add(listener);
    }

    private void transitionTo(BrokerState next) {
        state = next;
        for (Consumer<BrokerState> listener : stateListeners) {
            try {
                listener.accept(next);
            } catch (RuntimeException e) {
                log.warn("A broker state listener failed on {}", next, e);
            }
        }
    }

    /**
     * Starts the broker: STARTING while ZooKeeper connects and the log directories are locked,
     * RECOVERY while the logs load, RUNNING once the listeners are bound and the broker registered.
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
        if (!metersBound) {
            // Here, not in the constructor: the gauges read this broker, which must not escape half-built.
            BrokerMeters.bind(this, registry);
            metersBound = true;
        }
        transitionTo(BrokerState.STARTING);
        BrokerComponentsBuilder builder = new BrokerComponentsBuilder(properties, security, shareGroups,
            securityBootstrap, authorizer, logConfigDefaults, requestMetrics, refusals, registry, time);
        try {
            zooKeeper = builder.connectZooKeeper();
            storage = builder.lockLogDirs(zooKeeper);
            transitionTo(BrokerState.RECOVERY);
            components = builder.loadLogsAndStart(zooKeeper, storage);
            started = true;
            transitionTo(BrokerState.RUNNING);
            log.info("Broker {} started in {} ms: cluster {}, listeners {}, log dirs {}", properties.id(),
                time.milliseconds() - start, zooKeeper.clusterId(),
                components.boundEndPoints().stream().map(EndPoint::connectionString).toList(), builder.logDirs());
        } catch (IOException | RuntimeException e) {
            log.error("Broker {} failed to start: {}", properties.id(), e.getMessage());
            stop(builder.shutdownSoFar());
            throw e instanceof IllegalStateException ise ? ise : new IllegalStateException("Broker failed to start: "
                + e.getMessage(), e);
        }
    }

    /**
     * Stops the broker: a controlled shutdown first when it is running and
     * {@code controlled.shutdown.enable} is set, then each part in {@link ShutdownSequence.Step}
     * order, network first, logs flushed and marked clean near the end. Idempotent.
     */
    public synchronized void shutdown() {
        BrokerComponents built = components;
        stop(built == null ? ShutdownSequence.none() : built.shutdown());
    }

    private void stop(ShutdownSequence shutdown) {
        if (stopped) {
            return;
        }
        stopped = true;
        log.info("Broker {} shutting down", properties.id());
        if (started && properties.controlledShutdownEnable()) {
            transitionTo(BrokerState.PENDING_CONTROLLED_SHUTDOWN);
            controlledShutdown(components);
        }
        transitionTo(BrokerState.SHUTTING_DOWN);
        shutdown.run();
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
    private void controlledShutdown(BrokerComponents parts) {
        long start = time.milliseconds();
        ReplicaManager replicaManager = parts.replicaManager();
        try {
            parts.registration().markControlledShutdown();
            long deadline = start + properties.controlledShutdownMaxRetries() * properties.controlledShutdownRetryBackoffMs();
            List<?> remaining = replicaManager.leadershipsToMove();
            while (!remaining.isEmpty() && time.milliseconds() < deadline) {
                time.sleep(CONTROLLED_SHUTDOWN_POLL_MS);
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
     * The hook of fault tests (test code, in this package, stops the parts as a killed process
     * leaves them): marks the broker stopped and runs {@code stop} over its parts instead of the
     * clean shutdown, with no controlled shutdown and no SHUTTING_DOWN state, then enters
     * NOT_RUNNING. Production code never calls it. Does nothing if the broker has already stopped;
     * runs {@code stop} only if the broker had finished starting.
     */
    synchronized void stopAbruptly(Consumer<BrokerComponents> stop) {
        if (stopped) {
            return;
        }
        stopped = true;
        BrokerComponents built = components;
        if (built != null) {
            stop.accept(built);
        }
        transitionTo(BrokerState.NOT_RUNNING);
    }

    /** A part of the started broker, or {@code null} before it has started. */
    private <T> T part(Function<BrokerComponents, T> part) {
        BrokerComponents built = components;
        return built == null ? null : part.apply(built);
    }

    @Override
    public BrokerProperties properties() {
        return properties;
    }

    /** The listeners as bound (with ephemeral ports resolved); empty before the broker has started. */
    public List<EndPoint> boundEndPoints() {
        BrokerComponents built = components;
        return built == null ? List.of() : built.boundEndPoints();
    }

    /** {@code host:port} of the first listener, for clients' bootstrap.servers. */
    public String bootstrapServers() {
        EndPoint e = BrokerListeners.advertised(properties, boundEndPoints()).get(0);
        return e.host() + ":" + e.port();
    }

    public boolean isStarted() {
        return started && !stopped;
    }

    /** Requests waiting for a request handler thread, for the {@code RequestQueueSize} gauge. */
    int requestQueueSize() {
        BrokerComponents built = components;
        return built == null ? 0 : built.requestChannel().size();
    }

    public MetadataCache metadataCache() {
        return part(BrokerComponents::metadataCache);
    }

    public ReplicaManager replicaManager() {
        return part(BrokerComponents::replicaManager);
    }

    /**
     * The connection limits of this broker's listeners (KIP-402, KIP-612), whose
     * {@link ConnectionQuotas#updateLimits} applies changed limits live; null before the broker has started.
     */
    public ConnectionQuotas connectionQuotas() {
        return part(BrokerComponents::connectionQuotas);
    }

    /** The incremental fetch sessions (KIP-227) of this broker's Fetch handler. */
    public FetchManager fetchManager() {
        return part(BrokerComponents::fetchManager);
    }

    /** The log manager, from the time the log directories are locked (before recovery). */
    public LogManager logManager() {
        BrokerComponents.Storage locked = storage;
        return locked == null ? null : locked.logManager();
    }

    /** The ZooKeeper client, from the time it has connected (before the logs are loaded). */
    @Override
    public KafkaZkClient zkClient() {
        BrokerComponents.ZooKeeper connected = zooKeeper;
        return connected == null ? null : connected.client();
    }

    public Controller controller() {
        return part(BrokerComponents::controller);
    }

    /** Decides what each principal may do: Kafka's StandardAuthorizer over the ACLs in ZooKeeper, or allow-all. */
    public BrokerAuthorizer authorizer() {
        return authorizer;
    }

    /** Users' SCRAM credentials: stored in ZooKeeper, managed by AlterUserScramCredentials. */
    public ScramCredentialStore scramCredentialStore() {
        return part(BrokerComponents::scramCredentialStore);
    }

    /** ACLs: stored in ZooKeeper in Kafka's layout, managed by CreateAcls and DeleteAcls, for the authorizer. */
    public AclStore aclStore() {
        return part(BrokerComponents::aclStore);
    }

    /**
     * The live SCRAM credentials for the SASL authenticator, one cache per mechanism name
     * ({@code SCRAM-SHA-256}, {@code SCRAM-SHA-512}), loaded before the listeners bind.
     */
    public CredentialCache credentialCache() {
        return components.scramCredentialStore().credentialCache();
    }

    /** The embedded ZooKeeper, if this broker started one. */
    public EmbeddedZooKeeper embeddedZooKeeper() {
        BrokerComponents.ZooKeeper connected = zooKeeper;
        return connected == null ? null : connected.embedded().orElse(null);
    }
}
