package io.tributary.broker.cluster;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standalone ZooKeeper server inside the broker's JVM, on loopback, for the single-node
 * default (no {@code broker.zookeeper-connect}) and for tests. Data (snapshots and transaction
 * log) lives in one directory, so topics survive restarts.
 *
 * <p>A broker restarted on the same directory finds the sessions of its previous run in the
 * snapshot: they would hold its ephemeral registration until they time out. Since nothing but
 * this process could own a session of a server that was down, those stale sessions are expired
 * at start when {@code expireStaleSessions} is set.
 *
 * <p>Thread-safe for start and close.
 */
public final class EmbeddedZooKeeper implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedZooKeeper.class);

    private final ZooKeeperServer server;
    private final ServerCnxnFactory connectionFactory;

    private EmbeddedZooKeeper(ZooKeeperServer server, ServerCnxnFactory connectionFactory) {
        this.server = server;
        this.connectionFactory = connectionFactory;
    }

    /**
     * Starts a server.
     *
     * @param dataDir             snapshot and transaction log directory (created)
     * @param port                loopback port, 0 for ephemeral
     * @param tickTimeMs          ZooKeeper tick; sessions may last 2 to 20 ticks
     * @param expireStaleSessions expire sessions restored from a previous run
     * @throws IOException when the port cannot be bound or the directory used
     */
    public static EmbeddedZooKeeper start(File dataDir, int port, int tickTimeMs, boolean expireStaleSessions)
            throws IOException {
        if (!dataDir.mkdirs() && !dataDir.isDirectory()) {
            throw new IOException("Cannot create ZooKeeper data directory " + dataDir);
        }
        System.setProperty("zookeeper.admin.enableServer", "false");
        ZooKeeperServer server = new ZooKeeperServer(dataDir, dataDir, tickTimeMs);
        ServerCnxnFactory factory = ServerCnxnFactory.createFactory();
        try {
            factory.configure(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            factory.startup(server);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopQuietly(factory, server);
            throw new IOException("Interrupted while starting ZooKeeper", e);
        } catch (IOException | RuntimeException e) {
            stopQuietly(factory, server);
            throw new IOException("Could not start the embedded ZooKeeper on port " + port + ": " + e.getMessage(), e);
        }
        EmbeddedZooKeeper zk = new EmbeddedZooKeeper(server, factory);
        if (expireStaleSessions) {
            List<Long> stale = new ArrayList<>(server.getZKDatabase().getSessions());
            for (long sessionId : stale) {
                server.expire(sessionId);
            }
            if (!stale.isEmpty()) {
                log.info("Expired {} ZooKeeper session(s) left from the previous run", stale.size());
            }
        }
        log.info("Embedded ZooKeeper serving on {} with data in {}", zk.connectString(), dataDir);
        return zk;
    }

    private static void stopQuietly(ServerCnxnFactory factory, ZooKeeperServer server) {
        try {
            factory.shutdown();
        } catch (RuntimeException e) {
            log.debug("Error stopping the connection factory", e);
        }
        try {
            server.shutdown(true);
        } catch (RuntimeException e) {
            log.debug("Error stopping the server", e);
        }
        try {
            server.getTxnLogFactory().close();
        } catch (IOException | RuntimeException e) {
            log.debug("Error closing the transaction log", e);
        }
    }

    /** The bound port. */
    public int port() {
        return connectionFactory.getLocalPort();
    }

    /** {@code 127.0.0.1:port}. */
    public String connectString() {
        return InetAddress.getLoopbackAddress().getHostAddress() + ":" + port();
    }

    /** Expires a client's session as if it had timed out (tests use it to simulate a crash). */
    public void expireSession(long sessionId) {
        server.expire(sessionId);
    }

    @Override
    public void close() {
        connectionFactory.shutdown();
        if (server.isRunning()) {
            server.shutdown(true);
        }
        log.info("Embedded ZooKeeper stopped");
    }
}
