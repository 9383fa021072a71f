package io.tributary.broker;

import io.tributary.broker.cluster.BrokerRegistration;
import io.tributary.broker.cluster.Controller;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.fetchsession.FetchManager;
import io.tributary.broker.group.ConsumerLagMetrics;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.log.LogDirFailureChannel;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.network.ConnectionQuotas;
import io.tributary.broker.network.RequestChannel;
import io.tributary.broker.network.RequestHandlerPool;
import io.tributary.broker.network.SocketServer;
import io.tributary.broker.replica.ReplicaComponents;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.replica.ZkIsrUpdater;
import io.tributary.broker.scheduler.DefaultScheduler;
import io.tributary.broker.security.AclStore;
import io.tributary.broker.security.ListenerSecurity;
import io.tributary.broker.security.ScramCredentialStore;
import java.util.List;
import java.util.Optional;

/**
 * The parts of one started broker, built once in start order by {@link BrokerComponentsBuilder}
 * and never replaced: a broker that starts again is a new {@link BrokerServer}. Its phases come
 * first ({@link ZooKeeper}, then {@link Storage}), since they exist, and are published, before
 * the rest is built.
 *
 * <p>{@link #shutdown} stops them in {@link ShutdownSequence.Step} order. Package-private: the
 * broker's public getters read it, and fault tests in this package (test code) stop its parts
 * their own way through {@link BrokerServer#stopAbruptly}.
 *
 * @param fetchManager   the incremental fetch sessions (KIP-227) of the Fetch handler
 * @param connectionQuotas the connection limits all listeners share (KIP-402, KIP-612)
 * @param listeners      one Netty server per listener, bound, in {@code broker.listeners} order
 * @param boundEndPoints the listeners as bound (ephemeral ports resolved), same order
 * @param shutdown       the clean stop of every part above
 */
record BrokerComponents(ZooKeeper zooKeeper, Storage storage, MetadataCache metadataCache, ZkIsrUpdater isrUpdater,
                        ReplicaComponents replicas, Controller controller, GroupCoordinator groupCoordinator,
                        RequestChannel requestChannel, RequestHandlerPool requestHandlerPool, FetchManager fetchManager,
                        ScramCredentialStore scramCredentialStore, AclStore aclStore,
                        List<ListenerSecurity> listenerSecurity, ConnectionQuotas connectionQuotas,
                        List<SocketServer> listeners,
                        List<EndPoint> boundEndPoints, BrokerRegistration registration,
                        Optional<ConsumerLagMetrics> consumerLagMetrics, ShutdownSequence shutdown) {

    BrokerComponents {
        listenerSecurity = List.copyOf(listenerSecurity);
        listeners = List.copyOf(listeners);
        boundEndPoints = List.copyOf(boundEndPoints);
    }

    /**
     * The first phase: connected to ZooKeeper, which holds the cluster id the log directories are
     * checked against.
     *
     * @param embedded the ZooKeeper this broker started, when {@code broker.zookeeper-connect} is not set
     */
    record ZooKeeper(Optional<EmbeddedZooKeeper> embedded, KafkaZkClient client, String clusterId) {
    }

    /**
     * The second phase: the log directories locked for this broker and cluster (the broker is in
     * RECOVERY from here until its logs are loaded).
     *
     * @param scheduler      runs the log manager's flushes, checkpoints and retention, and the replica manager's tasks
     * @param logDirFailures where the log manager offers the directories it takes offline, for the
     *                       {@link io.tributary.broker.replica.LogDirFailureHandler} started once registered
     */
    record Storage(DefaultScheduler scheduler, LogManager logManager, LogDirFailureChannel logDirFailures) {
    }

    KafkaZkClient zkClient() {
        return zooKeeper.client();
    }

    LogManager logManager() {
        return storage.logManager();
    }

    DefaultScheduler scheduler() {
        return storage.scheduler();
    }

    ReplicaManager replicaManager() {
        return replicas.replicaManager();
    }
}
