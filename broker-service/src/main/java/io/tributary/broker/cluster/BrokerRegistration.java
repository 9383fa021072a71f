package io.tributary.broker.cluster;

import java.io.Closeable;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's ephemeral registration {@code /brokers/ids/{id}}: present while the broker's
 * ZooKeeper session lives, so the controller learns of its failure when the session ends.
 *
 * <p>At start, a node left by this broker's previous process (whose session has not expired
 * yet) is waited out for up to the session timeout; a node that stays is another live broker
 * with the same id, and the start fails. After a session expiry the node is created again.
 *
 * <p>Thread-safe.
 */
public final class BrokerRegistration implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(BrokerRegistration.class);

    private final KafkaZkClient zkClient;
    private volatile BrokerInfo brokerInfo;
    private final int sessionTimeoutMs;
    private final Time time;
    private final ExecutorService reregistration = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "broker-registration");
        t.setDaemon(true);
        return t;
    });
    private final ConnectionStateListener listener = this::onConnectionStateChanged;
    private final BrokerEpoch brokerEpoch;
    private volatile boolean closed;

    public BrokerRegistration(KafkaZkClient zkClient, BrokerInfo brokerInfo, int sessionTimeoutMs, Time time) {
        this(zkClient, brokerInfo, sessionTimeoutMs, new BrokerEpoch(), time);
    }

    /**
     * @param brokerEpoch set to the czxid of each registration this makes
     */
    public BrokerRegistration(KafkaZkClient zkClient, BrokerInfo brokerInfo, int sessionTimeoutMs,
                              BrokerEpoch brokerEpoch, Time time) {
        this.zkClient = zkClient;
        this.brokerInfo = brokerInfo;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.brokerEpoch = brokerEpoch;
        this.time = time;
    }

    /**
     * Creates the registration, waiting out a stale one.
     *
     * @throws IllegalStateException when another live broker holds this id
     */
    public void register() {
        String path = ZkPaths.broker(brokerInfo.id());
        long deadline = time.milliseconds() + sessionTimeoutMs + sessionTimeoutMs / 2 + 2000;
        boolean logged = false;
        while (true) {
            if (zkClient.createEphemeral(path, brokerInfo.toJson(time.milliseconds()))) {
                break;
            }
            Optional<KafkaZkClient.Versioned> existing = zkClient.getDataAndVersion(path);
            if (existing.isPresent() && existing.get().ephemeralOwner() == zkClient.sessionId()) {
                break;
            }
            if (time.milliseconds() > deadline) {
                throw new IllegalStateException("Broker id " + brokerInfo.id() + " is registered in ZooKeeper by "
                    + "another live broker (session 0x" + Long.toHexString(existing.map(KafkaZkClient.Versioned::ephemeralOwner)
                    .orElse(0L)) + "); give this broker another broker.id");
            }
            if (!logged) {
                log.info("Waiting for the previous registration of broker {} to expire (up to {} ms)",
                    brokerInfo.id(), deadline - time.milliseconds());
                logged = true;
            }
            time.sleep(200);
        }
        brokerEpoch.set(zkClient.getDataAndVersion(path).map(KafkaZkClient.Versioned::czxid).orElse(-1L));
        zkClient.curator().getConnectionStateListenable().addListener(listener);
        log.info("Registered broker {} at {} with broker epoch {}", brokerInfo.id(), path, brokerEpoch.get());
    }

    /** The czxid of the registration node. */
    public long brokerEpoch() {
        return brokerEpoch.get();
    }

    public BrokerInfo brokerInfo() {
        return brokerInfo;
    }

    private void onConnectionStateChanged(CuratorFramework client, ConnectionState state) {
        if (state == ConnectionState.RECONNECTED && !closed) {
            reregistration.execute(this::registerAgain);
        }
    }

    /**
     * After a reconnection the session may be new and the node gone: create it again, retrying
     * (every second) until it exists for this session or the registration is closed.
     */
    private void registerAgain() {
        String path = ZkPaths.broker(brokerInfo.id());
        while (!closed) {
            try {
                Optional<KafkaZkClient.Versioned> existing = zkClient.getDataAndVersion(path);
                if (existing.isPresent() && existing.get().ephemeralOwner() == zkClient.sessionId()) {
                    return;
                }
                if (existing.isEmpty() && zkClient.createEphemeral(path, brokerInfo.toJson(time.milliseconds()))) {
                    brokerEpoch.set(zkClient.getDataAndVersion(path).map(KafkaZkClient.Versioned::czxid).orElse(-1L));
                    log.info("Registered broker {} again after a ZooKeeper session expiry, broker epoch {}",
                        brokerInfo.id(), brokerEpoch.get());
                    return;
                }
            } catch (RuntimeException e) {
                log.warn("Could not register broker {} again yet: {}", brokerInfo.id(), e.toString());
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Marks the registration as in controlled shutdown: the controller moves this broker's
     * leaderships to other in-sync replicas and takes it out of ISRs.
     */
    public synchronized void markControlledShutdown() {
        brokerInfo = brokerInfo.inControlledShutdown();
        rewrite("mark broker " + brokerInfo.id() + " shutting down");
        log.info("Broker {} is in controlled shutdown", brokerInfo.id());
    }

    /**
     * Publishes the replicas this broker lost with a failed log directory (KIP-112), so the
     * controller moves their leadership and takes them out of ISRs.
     */
    public synchronized void updateOfflineReplicas(java.util.Set<org.apache.kafka.common.TopicPartition> offline) {
        brokerInfo = brokerInfo.withOfflineReplicas(offline);
        rewrite("publish the offline replicas of broker " + brokerInfo.id());
        log.warn("Broker {} published offline replicas {}", brokerInfo.id(), offline);
    }

    /** Writes the current {@code brokerInfo} over the registration node this session owns, if it still exists. */
    private void rewrite(String what) {
        String path = ZkPaths.broker(brokerInfo.id());
        zkClient.getDataAndVersion(path).filter(v -> v.ephemeralOwner() == zkClient.sessionId()).ifPresent(v ->
            KafkaZkClient.call(() -> zkClient.curator().setData().withVersion(v.version())
                .forPath(path, brokerInfo.toJson(time.milliseconds())), what));
    }

    /** Removes the registration, so the controller moves what is left at once. */
    @Override
    public void close() {
        closed = true;
        zkClient.curator().getConnectionStateListenable().removeListener(listener);
        reregistration.shutdownNow();
        try {
            String path = ZkPaths.broker(brokerInfo.id());
            zkClient.getDataAndVersion(path).filter(v -> v.ephemeralOwner() == zkClient.sessionId())
                .ifPresent(v -> zkClient.deleteIfExists(path, v.version()));
        } catch (RuntimeException e) {
            log.debug("Could not delete the registration of broker {}: {}", brokerInfo.id(), e.toString());
        }
    }
}
