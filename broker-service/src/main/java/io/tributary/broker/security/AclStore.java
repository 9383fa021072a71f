package io.tributary.broker.security;

import io.tributary.broker.cluster.ZkWatch;
import io.tributary.broker.cluster.ChangeNotificationPurger;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.ZkPaths;
import io.tributary.broker.cluster.ZooKeeperClientException;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ACLs stored in ZooKeeper exactly as Kafka's ZooKeeper-mode {@code AclAuthorizer} stored them
 * (layout in {@link AclZNodes}: one node per literal or prefixed resource pattern, change
 * notifications for Kafka's brokers and tools that follow them), with a live in-memory view for
 * the authorizer and DescribeAcls.
 *
 * <p>The view is loaded at {@link #start} and kept current by Curator {@link CuratorCache}s on
 * {@code /kafka-acl} and {@code /kafka-acl-extended}: any event on a resource node makes the store
 * read that node again and take what it holds now, not the event's data, so events that arrive
 * late, coalesced or out of order cannot leave a stale view. The reads and the updates of the view
 * that follow them are serialized, and reads of one ZooKeeper session see ever newer states, so
 * the view only moves forward. A change made through this store is in its view before
 * {@link #create} or {@link #delete} returns; other brokers' changes arrive through the watch
 * (milliseconds on a healthy ensemble).
 *
 * <p>Validation follows Kafka ({@link AclValidation}); deletion follows
 * {@code AclAuthorizer.deleteAcls}: a filter that names exactly one resource pattern deletes from
 * that node even when this broker has not seen it yet; other filters act on the resources in view.
 *
 * <p>The change notifications under {@code /kafka-acl-changes} and {@code /kafka-acl-extended-changes}
 * are not read; once started the store deletes those older than the expiration (Kafka's 15 minutes
 * by default) whenever a new one appears, as Kafka's brokers did ({@link ChangeNotificationPurger}).
 *
 * <p>An entry of a node naming an operation or permission type this version does not know is left
 * out of the view (logged), and dropped from the node when this store next rewrites that node.
 *
 * <p>Thread-safe. {@link #create} and {@link #delete} block on ZooKeeper: never call them on a
 * network thread. {@link #acls} reads memory.
 */
public final class AclStore implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(AclStore.class);

    private final KafkaZkClient zkClient;
    private final AclResourceNodes nodes;
    /** Serializes each read of a resource node with the update of the view that follows it. */
    private final ReentrantLock refreshLock = new ReentrantLock();
    /** The view, guarded by itself; listeners are called holding it, so they see changes in order. */
    private final Map<ResourcePattern, Set<AccessControlEntry>> view = new HashMap<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final List<CuratorCache> watches = new ArrayList<>();
    private final ChangeNotificationPurger purger;
    private ExecutorService refresher;

    /** A store that purges change notifications older than Kafka's 15 minutes, by the system clock. */
    public AclStore(KafkaZkClient zkClient, Time time) {
        this(zkClient, ChangeNotificationPurger.DEFAULT_EXPIRATION_MS, time);
    }

    /**
     * @param notificationExpirationMs age in milliseconds (by {@code time} against the znode's ctime)
     *                                 beyond which ACL change notifications are deleted
     */
    public AclStore(KafkaZkClient zkClient, long notificationExpirationMs, Time time) {
        this.zkClient = zkClient;
        this.nodes = new AclResourceNodes(zkClient);
        this.purger = new ChangeNotificationPurger(zkClient, List.of(
            ZkPaths.KAFKA_ACL_CHANGES + "/" + ZkPaths.ACL_CHANGE_SEQUENCE_PREFIX,
            ZkPaths.KAFKA_ACL_EXTENDED_CHANGES + "/" + ZkPaths.ACL_CHANGE_SEQUENCE_PREFIX),
            notificationExpirationMs, time, "acl");
    }

    /**
     * Told of every change of the view. Calls are serialized and in the order of the changes: on
     * the thread of {@link #addListener} (the initial set), of {@link #create} and {@link #delete}
     * (this store's changes), or the store's {@code acl-store-refresh} thread (changes seen
     * through the watch). A listener must return quickly and must not call {@link #create} or
     * {@link #delete}; {@link #acls} is fine. An exception it throws is logged and ignored.
     */
    public interface Listener {
        void aclsChanged(Collection<AclBinding> added, Collection<AclBinding> removed);
    }

    /** The outcome of creating one binding: {@link ApiError#NONE} or why it was not created. */
    public record CreateResult(AclBinding binding, ApiError error) {
    }

    /**
     * The outcome of one deletion filter: the bindings it deleted, and NONE or the first error met
     * (INVALID_REQUEST for a filter with unknown elements; a ZooKeeper failure on a resource it
     * matched, whose bindings are then not in {@code deleted}).
     */
    public record DeleteResult(AclBindingFilter filter, List<AclBinding> deleted, ApiError error) {
    }

    /**
     * Creates the ACL paths when missing, loads every ACL and starts watching for changes, then
     * starts purging expired change notifications; returns once loaded.
     *
     * @throws ZooKeeperClientException when ZooKeeper fails or the load does not finish within {@code timeoutMs}
     */
    public synchronized void start(long timeoutMs) {
        nodes.ensurePaths();
        refresher = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "acl-store-refresh");
            t.setDaemon(true);
            return t;
        });
        List<String> roots = List.of(ZkPaths.KAFKA_ACL, ZkPaths.KAFKA_ACL_EXTENDED);
        CountDownLatch initialized = new CountDownLatch(roots.size());
        ExecutorService events = refresher;
        for (String root : roots) {
            CuratorCache watch = ZkWatch.of(zkClient.curator(), root, CuratorCacheListener.builder()
                .forAll((type, oldData, data) -> onWatchEvent(events, oldData, data))
                .forInitialized(initialized::countDown)
                .build());
            watches.add(watch);
            watch.start();
        }
        try {
            if (!initialized.await(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new ZooKeeperClientException("ACLs not loaded from ZooKeeper within " + timeoutMs + " ms");
            }
            // The refreshes of the nodes found while loading were queued before this.
            events.submit(() -> { }).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZooKeeperClientException("Interrupted while loading ACLs", e);
        } catch (TimeoutException e) {
            throw new ZooKeeperClientException("ACLs not loaded from ZooKeeper within " + timeoutMs + " ms");
        } catch (ExecutionException e) {
            throw new ZooKeeperClientException("Could not load ACLs: " + e.getCause(), e.getCause());
        }
        synchronized (view) {
            log.info("ACLs loaded: {} binding(s) on {} resource pattern(s)",
                view.values().stream().mapToInt(Set::size).sum(), view.size());
        }
        purger.start();
    }

    /**
     * Registers a listener: calls it at once with every current binding as added, then with every
     * change (see {@link Listener} for the threads).
     */
    public void addListener(Listener listener) {
        synchronized (view) {
            notify(listener, bindings(view), List.of());
            listeners.add(listener);
        }
    }

    /** The current bindings that match {@code filter} ({@link AclBindingFilter#matches}), from memory. */
    public Collection<AclBinding> acls(AclBindingFilter filter) {
        List<AclBinding> matching = new ArrayList<>();
        synchronized (view) {
            view.forEach((pattern, entries) -> entries.forEach(entry -> {
                AclBinding binding = new AclBinding(pattern, entry);
                if (filter.matches(binding)) {
                    matching.add(binding);
                }
            }));
        }
        return matching;
    }

    /**
     * Creates ACL bindings, validated as Kafka does (INVALID_REQUEST for a binding that cannot be
     * stored); creating one that exists succeeds. Bindings of one resource pattern are written
     * together: all or none.
     *
     * @return one result per binding, in order
     */
    public List<CreateResult> create(List<AclBinding> bindings) {
        ApiError[] errors = new ApiError[bindings.size()];
        Map<ResourcePattern, List<Integer>> byPattern = new LinkedHashMap<>();
        for (int i = 0; i < bindings.size(); i++) {
            Optional<String> invalid = AclValidation.invalidBinding(bindings.get(i));
            if (invalid.isPresent()) {
                errors[i] = new ApiError(Errors.INVALID_REQUEST, invalid.get());
            } else {
                byPattern.computeIfAbsent(bindings.get(i).pattern(), p -> new ArrayList<>()).add(i);
            }
        }
        byPattern.forEach((pattern, indexes) -> {
            ApiError error;
            try {
                change(pattern, current -> {
                    indexes.forEach(i -> current.add(bindings.get(i).entry()));
                    return current;
                });
                error = ApiError.NONE;
            } catch (RuntimeException e) {
                log.warn("Could not create the ACLs of {}: {}", pattern, e.toString());
                error = ApiError.fromThrowable(e);
            }
            for (int i : indexes) {
                errors[i] = error;
            }
        });
        List<CreateResult> results = new ArrayList<>(bindings.size());
        for (int i = 0; i < bindings.size(); i++) {
            results.add(new CreateResult(bindings.get(i), errors[i]));
        }
        return results;
    }

    /**
     * Deletes the bindings that match each filter ({@link AclBindingFilter} semantics, MATCH and ANY
     * included); a binding matched by several filters is reported for the first.
     *
     * @return one result per filter, in order
     */
    public List<DeleteResult> delete(List<AclBindingFilter> filters) {
        List<List<AclBinding>> deleted = new ArrayList<>();
        ApiError[] errors = new ApiError[filters.size()];
        List<Integer> valid = new ArrayList<>();
        Set<ResourcePattern> candidates = new LinkedHashSet<>();
        for (int i = 0; i < filters.size(); i++) {
            deleted.add(new ArrayList<>());
            Optional<String> invalid = AclValidation.invalidFilter(filters.get(i));
            if (invalid.isPresent()) {
                errors[i] = new ApiError(Errors.INVALID_REQUEST, invalid.get());
                continue;
            }
            errors[i] = ApiError.NONE;
            valid.add(i);
            AclBindingFilter filter = filters.get(i);
            if (filter.patternFilter().matchesAtMostOne()) {
                candidates.add(new ResourcePattern(filter.patternFilter().resourceType(), filter.patternFilter().name(),
                    filter.patternFilter().patternType()));
            }
        }
        synchronized (view) {
            candidates.addAll(view.keySet());
        }
        for (ResourcePattern pattern : candidates) {
            List<Integer> matching = valid.stream().filter(i -> filters.get(i).patternFilter().matches(pattern)).toList();
            if (matching.isEmpty() || !AclValidation.hasNode(pattern)) {
                continue;
            }
            Map<AccessControlEntry, Integer> removedBy = new LinkedHashMap<>();
            try {
                change(pattern, current -> {
                    removedBy.clear();
                    for (AccessControlEntry entry : current) {
                        matching.stream().filter(i -> filters.get(i).entryFilter().matches(entry)).findFirst()
                            .ifPresent(i -> removedBy.put(entry, i));
                    }
                    current.removeAll(removedBy.keySet());
                    return current;
                });
                removedBy.forEach((entry, i) -> deleted.get(i).add(new AclBinding(pattern, entry)));
            } catch (RuntimeException e) {
                log.warn("Could not delete ACLs of {}: {}", pattern, e.toString());
                ApiError error = ApiError.fromThrowable(e);
                for (int i : removedBy.isEmpty() ? matching : new LinkedHashSet<>(removedBy.values())) {
                    if (errors[i].isSuccess()) {
                        errors[i] = error;
                    }
                }
            }
        }
        List<DeleteResult> results = new ArrayList<>(filters.size());
        for (int i = 0; i < filters.size(); i++) {
            results.add(new DeleteResult(filters.get(i), List.copyOf(deleted.get(i)), errors[i]));
        }
        return results;
    }

    /** Writes a change of one resource's ACLs, then takes the node as it is now into the view. */
    private void change(ResourcePattern pattern, UnaryOperator<Set<AccessControlEntry>> change) {
        nodes.update(pattern, change);
        refresh(pattern);
    }

    private void onWatchEvent(ExecutorService events, ChildData oldData, ChildData data) {
        ChildData node = data != null ? data : oldData;
        if (node == null) {
            return;
        }
        AclZNodes.resourcePattern(node.getPath()).ifPresent(pattern -> {
            try {
                events.execute(() -> refreshLogged(pattern));
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                // closed: the view keeps its last state
            }
        });
    }

    private void refreshLogged(ResourcePattern pattern) {
        try {
            refresh(pattern);
        } catch (RuntimeException e) {
            log.error("Could not read the ACLs of {} from ZooKeeper: {}", pattern, e.toString());
        }
    }

    /** Reads a resource's node and sets the view of it to what it holds. */
    private void refresh(ResourcePattern pattern) {
        refreshLock.lock();
        try {
            Set<AccessControlEntry> acls;
            try {
                acls = nodes.read(pattern).acls();
            } catch (IllegalArgumentException malformed) {
                log.error("The ACL node of {} is malformed; its ACLs are left out: {}", pattern, malformed.getMessage());
                acls = Set.of();
            }
            apply(pattern, acls);
        } finally {
            refreshLock.unlock();
        }
    }

    private void apply(ResourcePattern pattern, Set<AccessControlEntry> acls) {
        synchronized (view) {
            Set<AccessControlEntry> before = view.getOrDefault(pattern, Set.of());
            if (before.equals(acls)) {
                return;
            }
            if (acls.isEmpty()) {
                view.remove(pattern);
            } else {
                view.put(pattern, Collections.unmodifiableSet(new LinkedHashSet<>(acls)));
            }
            List<AclBinding> added = acls.stream().filter(e -> !before.contains(e)).map(e -> new AclBinding(pattern, e)).toList();
            List<AclBinding> removed = before.stream().filter(e -> !acls.contains(e)).map(e -> new AclBinding(pattern, e)).toList();
            for (Listener listener : listeners) {
                notify(listener, added, removed);
            }
        }
    }

    private static List<AclBinding> bindings(Map<ResourcePattern, Set<AccessControlEntry>> acls) {
        List<AclBinding> all = new ArrayList<>();
        acls.forEach((pattern, entries) -> entries.forEach(entry -> all.add(new AclBinding(pattern, entry))));
        return all;
    }

    private static void notify(Listener listener, Collection<AclBinding> added, Collection<AclBinding> removed) {
        try {
            listener.aclsChanged(added, removed);
        } catch (RuntimeException e) {
            log.error("ACL listener {} failed", listener, e);
        }
    }

    /** Stops watching and purging; the view keeps its last state. */
    @Override
    public synchronized void close() {
        purger.close();
        watches.forEach(CuratorCache::close);
        watches.clear();
        if (refresher != null) {
            refresher.shutdownNow();
            refresher = null;
        }
    }
}
