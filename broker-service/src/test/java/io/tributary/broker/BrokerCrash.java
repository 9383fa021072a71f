package io.tributary.broker;

import io.tributary.broker.network.SocketServer;
import io.tributary.broker.security.ListenerSecurity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a broker as a killed process would, for fault tests that run several brokers in one JVM:
 * the sockets close at once, the ZooKeeper session ends (its ephemeral nodes go, as when a
 * session expires), and the logs are left without flush, checkpoints or clean-shutdown marker
 * ({@code LogManager.crash()}), so the next start recovers them. Nothing is handed over: no
 * controlled shutdown. Test code: it stops the parts through {@link BrokerServer#stopAbruptly},
 * so production code carries no simulated crash.
 *
 * <p>Unlike a real {@code kill -9}, the threads of the broker stop too (they would leak in the test
 * JVM otherwise), and an embedded ZooKeeper is closed last.
 */
public final class BrokerCrash {

    private static final Logger log = LoggerFactory.getLogger(BrokerCrash.class);

    private BrokerCrash() {
    }

    /** Crashes {@code broker}; does nothing if it has already stopped. */
    public static void crash(BrokerServer broker) {
        broker.stopAbruptly(parts -> {
            log.warn("Broker {} crashing (simulated)", broker.properties().id());
            parts.consumerLagMetrics().ifPresent(lag -> quietly("consumer lag metrics", lag::close));
            for (SocketServer server : parts.listeners()) {
                quietly("listener", server::close);
            }
            for (ListenerSecurity secured : parts.listenerSecurity()) {
                quietly("listener security", secured::close);
            }
            quietly("ZooKeeper client", parts.zkClient()::close);
            quietly("controller", parts.controller()::close);
            parts.requestHandlerPool().close();
            quietly("metadata cache", parts.metadataCache()::close);
            quietly("SCRAM credential store", parts.scramCredentialStore()::close);
            quietly("ACL store", parts.aclStore()::close);
            quietly("replica manager", parts.replicaManager()::shutdown);
            quietly("ISR updater", parts.isrUpdater()::close);
            quietly("group coordinator", parts.groupCoordinator()::shutdown);
            quietly("log manager", parts.logManager()::crash);
            quietly("scheduler", () -> {
                try {
                    parts.scheduler().shutdown();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            parts.zooKeeper().embedded().ifPresent(zk -> quietly("embedded ZooKeeper", zk::close));
        });
    }

    private static void quietly(String part, Runnable stop) {
        try {
            stop.run();
        } catch (RuntimeException e) {
            log.warn("Error stopping the {}", part, e);
        }
    }
}
