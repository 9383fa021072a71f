package io.tributary.broker.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * An in-memory ZooKeeper for the simulation, with the parts of its contract replication relies
 * on: sessions that expire on the simulated clock when not heartbeated within their timeout (or
 * at once, as a fault), ephemeral nodes deleted with their session, one-shot data and child
 * watches delivered as later simulated events (to live sessions only), node versions with
 * conditional {@code setData} ({@link Code#BAD_VERSION}), and {@code multi}: all operations or
 * none, each checked against the state before it.
 *
 * <p>Data is kept as Java objects (a {@code LeaderAndIsr}, an {@code Integer}), not bytes: the
 * JSON codecs are not what is simulated. Node paths are not checked for parents. Invariant: a
 * node's version grows by one on every {@code setData}; every successful write (a create, a
 * {@code multi}) takes the next zxid, which becomes the czxid of what it creates and the mzxid of
 * what it creates or changes; an ephemeral node exists only while its session lives. Not thread-safe (one simulation thread).
 */
final class FakeZooKeeper {

    /** The errors of ZooKeeper's {@code KeeperException} that the simulation meets. */
    enum Code { NO_NODE, NODE_EXISTS, BAD_VERSION, SESSION_EXPIRED }

    static final class ZkException extends RuntimeException {
        final Code code;

        ZkException(Code code, String path) {
            super(code + " " + path);
            this.code = code;
        }
    }

    /**
     * A node's data and its {@code Stat}: version, and the transaction ids (zxids) that created
     * ({@code czxid}) and last modified ({@code mzxid}) it.
     */
    record Versioned(Object data, int version, long czxid, long mzxid) {
    }

    /** One operation of a {@link #multi}. A version of -1 matches any. */
    sealed interface Op permits Check, SetData, Create {
        String path();
    }

    record Check(String path, int version) implements Op {
    }

    record SetData(String path, Object data, int version) implements Op {
    }

    record Create(String path, Object data) implements Op {
    }

    private record Node(Object data, int version, long ephemeralOwner, long czxid, long mzxid) {

        Versioned versioned() {
            return new Versioned(data, version, czxid, mzxid);
        }
    }

    private record Watch(long session, Consumer<String> watcher) {
    }

    private static final class Session {
        final long timeoutMs;
        final LongConsumer onExpired;
        long lastHeartbeatMs;
        boolean alive = true;

        Session(long timeoutMs, long nowMs, LongConsumer onExpired) {
            this.timeoutMs = timeoutMs;
            this.lastHeartbeatMs = nowMs;
            this.onExpired = onExpired;
        }
    }

    private final SimulatedEventQueue queue;
    private final Random random;
    private final long maxWatchDelayMs;
    private final Map<String, Node> nodes = new TreeMap<>();
    private final Map<String, List<Watch>> dataWatches = new TreeMap<>();
    private final Map<String, List<Watch>> childWatches = new TreeMap<>();
    private final Map<Long, Session> sessions = new TreeMap<>();
    private long nextSession = 1;
    private long lastZxid;

    FakeZooKeeper(SimulatedEventQueue queue, Random random, long maxWatchDelayMs) {
        this.queue = queue;
        this.random = random;
        this.maxWatchDelayMs = maxWatchDelayMs;
    }

    /** A new session; {@code onExpired} gets its id (as an event) when it expires. */
    long createSession(long timeoutMs, LongConsumer onExpired) {
        long id = nextSession++;
        sessions.put(id, new Session(timeoutMs, queue.nowMs(), onExpired));
        return id;
    }

    void heartbeat(long session) {
        Session s = sessions.get(session);
        if (s != null && s.alive) {
            s.lastHeartbeatMs = queue.nowMs();
        }
    }

    boolean isAlive(long session) {
        Session s = sessions.get(session);
        return s != null && s.alive;
    }

    /** Expires every session not heartbeated within its timeout; the simulation calls it periodically. */
    void tick() {
        long now = queue.nowMs();
        List<Long> overdue = new ArrayList<>();
        sessions.forEach((id, s) -> {
            if (s.alive && now - s.lastHeartbeatMs > s.timeoutMs) {
                overdue.add(id);
            }
        });
        overdue.forEach(this::expire);
    }

    /** Expires {@code session} now: its ephemeral nodes go (firing watches), then its client is told. */
    void expire(long session) {
        Session s = sessions.get(session);
        if (s == null || !s.alive) {
            return;
        }
        s.alive = false;
        List<String> owned = new ArrayList<>();
        nodes.forEach((path, node) -> {
            if (node.ephemeralOwner == session) {
                owned.add(path);
            }
        });
        owned.forEach(path -> {
            nodes.remove(path);
            fireDataWatches(path);
            fireChildWatches(parentOf(path));
        });
        queue.schedule(1 + random.nextInt((int) maxWatchDelayMs), "session " + session + " expired",
            () -> s.onExpired.accept(session));
    }

    /** Creates a node, ephemeral when {@code ephemeral} (owned by {@code session}). */
    void create(long session, String path, Object data, boolean ephemeral) {
        checkSession(session);
        if (nodes.containsKey(path)) {
            throw new ZkException(Code.NODE_EXISTS, path);
        }
        long zxid = ++lastZxid;
        nodes.put(path, new Node(data, 0, ephemeral ? session : 0, zxid, zxid));
        fireDataWatches(path);
        fireChildWatches(parentOf(path));
    }

    /** The node's data and version, or empty; sets a data watch either way when {@code watcher} is not null. */
    Optional<Versioned> exists(long session, String path, Consumer<String> watcher) {
        checkSession(session);
        if (watcher != null) {
            addWatch(dataWatches, path, new Watch(session, watcher));
        }
        Node node = nodes.get(path);
        return node == null ? Optional.empty() : Optional.of(node.versioned());
    }

    /** The node's data and version. */
    Versioned getData(long session, String path, Consumer<String> watcher) {
        return exists(session, path, watcher).orElseThrow(() -> new ZkException(Code.NO_NODE, path));
    }

    /** The names of {@code path}'s children, sorted; sets a child watch when {@code watcher} is not null. */
    List<String> getChildren(long session, String path, Consumer<String> watcher) {
        checkSession(session);
        if (watcher != null) {
            addWatch(childWatches, path, new Watch(session, watcher));
        }
        List<String> children = new ArrayList<>();
        for (String p : nodes.keySet()) {
            if (parentOf(p).equals(path)) {
                children.add(p.substring(path.length() + 1));
            }
        }
        return children;
    }

    /** Sets the data if the version is {@code expectedVersion} (-1: any). @return the new version */
    int setData(long session, String path, Object data, int expectedVersion) {
        return multi(session, List.of(new SetData(path, data, expectedVersion))).get(0);
    }

    /**
     * Runs the operations all or none: each is checked against the nodes as the ones before it
     * left them, and nothing changes when one fails.
     *
     * @return each operation's resulting version (the checked version for a check)
     */
    List<Integer> multi(long session, List<Op> ops) {
        checkSession(session);
        Map<String, Node> after = new TreeMap<>(nodes);
        List<Integer> versions = new ArrayList<>();
        long zxid = lastZxid + 1; // one transaction, one zxid
        for (Op op : ops) {
            Node node = after.get(op.path());
            if (op instanceof Check c) {
                requireVersion(node, c.path(), c.version());
                versions.add(node.version);
            } else if (op instanceof SetData d) {
                requireVersion(node, d.path(), d.version());
                Node changed = new Node(d.data(), node.version + 1, node.ephemeralOwner, node.czxid, zxid);
                after.put(d.path(), changed);
                versions.add(changed.version);
            } else {
                if (node != null) {
                    throw new ZkException(Code.NODE_EXISTS, op.path());
                }
                after.put(op.path(), new Node(((Create) op).data(), 0, 0, zxid, zxid));
                versions.add(0);
            }
        }
        nodes.clear();
        nodes.putAll(after);
        lastZxid = zxid;
        for (Op op : ops) {
            if (!(op instanceof Check)) {
                fireDataWatches(op.path());
            }
            if (op instanceof Create) {
                fireChildWatches(parentOf(op.path()));
            }
        }
        return versions;
    }

    /** The stored data of {@code path} without a session, for the invariant checks. */
    Optional<Versioned> peek(String path) {
        Node node = nodes.get(path);
        return node == null ? Optional.empty() : Optional.of(node.versioned());
    }

    private static void requireVersion(Node node, String path, int version) {
        if (node == null) {
            throw new ZkException(Code.NO_NODE, path);
        }
        if (version != -1 && node.version != version) {
            throw new ZkException(Code.BAD_VERSION, path);
        }
    }

    private void checkSession(long session) {
        if (!isAlive(session)) {
            throw new ZkException(Code.SESSION_EXPIRED, "session " + session);
        }
    }

    private static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    /** A watcher set twice on a path before it fires is delivered once, as ZooKeeper's. */
    private static void addWatch(Map<String, List<Watch>> watches, String path, Watch watch) {
        List<Watch> list = watches.computeIfAbsent(path, p -> new ArrayList<>());
        if (!list.contains(watch)) {
            list.add(watch);
        }
    }

    private void fireDataWatches(String path) {
        deliver(path, dataWatches.remove(path));
    }

    private void fireChildWatches(String path) {
        deliver(path, childWatches.remove(path));
    }

    /** One-shot: each watch is delivered once, after a random delay, if its session still lives then. */
    private void deliver(String path, List<Watch> watches) {
        if (watches == null) {
            return;
        }
        for (Watch w : watches) {
            queue.schedule(1 + random.nextInt((int) maxWatchDelayMs), "watch " + path + " (session " + w.session + ")",
                () -> {
                    if (isAlive(w.session)) {
                        w.watcher.accept(path);
                    }
                });
        }
    }
}
