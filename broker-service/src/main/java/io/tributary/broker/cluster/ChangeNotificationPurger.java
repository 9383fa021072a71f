package io.tributary.broker.cluster;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.WatcherRemoveCuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.kafka.common.utils.Time;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes expired change notifications, as Kafka's ZooKeeper-mode
 * {@code ZkNodeChangeNotificationListener.purgeObsoleteNotifications} did: a persistent sequential
 * notification node ({@code /config/changes/config_change_*}, {@code /kafka-acl-changes/acl_changes_*},
 * {@code /kafka-acl-extended-changes/acl_changes_*}) whose creation time (the znode's {@code ctime},
 * set by the ZooKeeper server) is more than {@code expirationMs} before {@link Time#milliseconds()}
 * is deleted; younger ones are left for brokers and tools that may still need them.
 *
 * <p>Like Kafka's listener, a pass runs at {@link #start}, whenever the children of a notification
 * root change (a new notification, i.e. a change this broker processes; a watch on the root's
 * children, re-armed by every pass) and after the ZooKeeper connection is re-established. Every
 * broker purges: several deleting the same node at once is expected, and a node already gone
 * ({@code NoNode}) is skipped. Passes run one at a time on the purger's own daemon thread and
 * requests made during a pass cause one more pass. Brokers of this version do not read
 * notifications (their stores watch the data nodes and load everything at start and on
 * reconnection), so purging never loses them a change.
 *
 * <p>As in Kafka, "now" is the broker's clock and ctime the ZooKeeper server's: a broker whose
 * clock runs ahead of the ensemble's by more than the expiration would purge notifications early.
 *
 * <p>With {@code broker.zookeeper-set-acl} the roots are created with {@link ZkAcls}' default ACL,
 * which gives the cluster's identity (every broker's) DELETE on their children.
 *
 * <p>Thread-safe.
 */
public final class ChangeNotificationPurger implements Closeable {

    /** Kafka's {@code changeExpirationMs}: 15 minutes. */
    public static final long DEFAULT_EXPIRATION_MS = 15 * 60 * 1000L;

    private static final Logger log = LoggerFactory.getLogger(ChangeNotificationPurger.class);

    private final KafkaZkClient zkClient;
    private final List<String> prefixes;
    private final long expirationMs;
    private final Time time;
    private final String name;
    private final AtomicBoolean queued = new AtomicBoolean();
    /** One instance, so a watch armed twice on a root is one watch. */
    private final CuratorWatcher childrenWatcher = this::onChildrenEvent;
    private final ConnectionStateListener connectionListener = this::onConnectionState;
    private ExecutorService executor;
    private volatile WatcherRemoveCuratorFramework watching;
    private volatile boolean closed;

    /**
     * @param notificationPrefixes full path prefixes of the notifications to purge, e.g.
     *                             {@link ZkPaths#CONFIG_CHANGE_PREFIX}; the part before the last
     *                             {@code '/'} is the root to watch, only children whose names start
     *                             with the rest are deleted
     * @param expirationMs         age in milliseconds (now minus ctime) beyond which a notification is
     *                             deleted; Kafka's default is {@link #DEFAULT_EXPIRATION_MS}
     * @param time                 the clock "now" is read from
     * @param name                 what the notifications are about, for the thread name and logs
     */
    public ChangeNotificationPurger(KafkaZkClient zkClient, List<String> notificationPrefixes, long expirationMs,
                                    Time time, String name) {
        if (expirationMs < 0) {
            throw new IllegalArgumentException("expirationMs must not be negative: " + expirationMs);
        }
        for (String prefix : notificationPrefixes) {
            if (prefix.lastIndexOf('/') <= 0 || prefix.endsWith("/")) {
                throw new IllegalArgumentException("Not a notification path prefix: " + prefix);
            }
        }
        this.zkClient = zkClient;
        this.prefixes = List.copyOf(notificationPrefixes);
        this.expirationMs = expirationMs;
        this.time = time;
        this.name = name;
    }

    /** Starts purging: one pass now (in the background), then on every change of a root and on reconnection. */
    public synchronized void start() {
        if (closed || executor != null) {
            return;
        }
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name + "-notification-purger");
            t.setDaemon(true);
            return t;
        });
        watching = zkClient.curator().newWatcherRemoveCuratorFramework();
        zkClient.curator().getConnectionStateListenable().addListener(connectionListener);
        schedule();
    }

    /**
     * Deletes, on the calling thread, every notification older than the expiration, and arms the
     * watches when started. Blocks on ZooKeeper.
     *
     * @return how many notifications this call deleted (not those another broker deleted first)
     * @throws ZooKeeperClientException when ZooKeeper fails
     */
    public int purge() {
        int deleted = 0;
        for (String prefix : prefixes) {
            deleted += purge(prefix);
        }
        return deleted;
    }

    private int purge(String prefix) {
        int slash = prefix.lastIndexOf('/');
        String root = prefix.substring(0, slash);
        String namePrefix = prefix.substring(slash + 1);
        return KafkaZkClient.run(() -> {
            WatcherRemoveCuratorFramework watches = watching;
            List<String> children;
            try {
                children = watches != null && !closed
                    ? watches.getChildren().usingWatcher(childrenWatcher).forPath(root)
                    : zkClient.curator().getChildren().forPath(root);
            } catch (KeeperException.NoNodeException e) {
                return 0; // nothing was ever written there
            }
            long now = time.milliseconds();
            List<String> sorted = new ArrayList<>(children);
            sorted.sort(null);
            int deleted = 0;
            for (String child : sorted) {
                if (!child.startsWith(namePrefix)) {
                    continue;
                }
                String path = root + "/" + child;
                Stat stat = zkClient.curator().checkExists().forPath(path);
                if (stat == null || now - stat.getCtime() <= expirationMs) {
                    continue;
                }
                try {
                    zkClient.curator().delete().forPath(path);
                    deleted++;
                    log.debug("Purged change notification {}", path);
                } catch (KeeperException.NoNodeException e) {
                    // another broker purged it first
                }
            }
            return deleted;
        }, "purge the change notifications under " + root);
    }

    private void schedule() {
        if (closed || !queued.compareAndSet(false, true)) {
            return;
        }
        ExecutorService purging;
        synchronized (this) {
            purging = executor;
        }
        if (purging == null) {
            queued.set(false);
            return;
        }
        try {
            purging.execute(() -> {
                queued.set(false);
                if (closed) {
                    return;
                }
                try {
                    int deleted = purge();
                    if (deleted > 0) {
                        log.debug("Purged {} {} change notification(s) older than {} ms", deleted, name, expirationMs);
                    }
                } catch (RuntimeException e) {
                    if (!closed) {
                        log.warn("Could not purge {} change notifications (retried on the next change or reconnection): {}",
                            name, e.getMessage());
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            queued.set(false); // closed
        }
    }

    private void onChildrenEvent(WatchedEvent event) {
        if (event.getType() != Watcher.Event.EventType.None) {
            schedule();
        }
    }

    private void onConnectionState(org.apache.curator.framework.CuratorFramework client, ConnectionState state) {
        if (state == ConnectionState.RECONNECTED) {
            schedule(); // a new session lost the watches; notifications may have arrived meanwhile
        }
    }

    /** Stops purging: removes the watches, interrupts a running pass. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        zkClient.curator().getConnectionStateListenable().removeListener(connectionListener);
        if (watching != null) {
            try {
                watching.removeWatchers();
            } catch (RuntimeException e) {
                log.debug("Could not remove the {} notification watches: {}", name, e.toString());
            }
            watching = null;
        }
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }
}
