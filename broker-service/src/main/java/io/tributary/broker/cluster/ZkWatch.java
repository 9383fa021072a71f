package io.tributary.broker.cluster;

import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.cache.CuratorCacheStorage;

/**
 * A Curator {@link CuratorCache} on a ZooKeeper subtree that also reports nodes replaced while the
 * broker was disconnected.
 *
 * <p>Curator (5.9) tells a changed node from an unchanged one by its data version alone. A node
 * deleted and created again while this broker could not see ZooKeeper (an ephemeral
 * {@code /controller} or {@code /brokers/ids/N} after a session expiry, a topic deleted and
 * created again) comes back with version 0 as before: Curator stores the new data after it
 * reconnects but fires no event, and a listener keeps the old value for good. Found by the fault
 * campaign (seed 3002): a controller cut from ZooKeeper kept answering itself as the controller
 * after another broker took over, so Admin clients asking it retried NOT_CONTROLLER for minutes.
 * Here the cache's storage sees every write, and a node whose version is unchanged but whose
 * modification zxid differs is delivered to the listener as {@link CuratorCacheListener.Type#NODE_CHANGED}
 * (a new version is left to Curator, which reports it itself).
 *
 * <p>Events arrive on Curator's notification thread ({@code CuratorFramework.runSafe}), as the
 * cache's own do, in the order the cache stores the nodes.
 */
public final class ZkWatch {

    private ZkWatch() {
    }

    /**
     * Builds (does not start) a cache of {@code path} and its descendants whose events, replaced
     * nodes included, go to {@code listener}.
     */
    public static CuratorCache of(CuratorFramework client, String path, CuratorCacheListener listener) {
        CuratorCache cache = CuratorCache.builder(client, path)
            .withStorage(new ReplacementAwareStorage(CuratorCacheStorage.standard(), listener, client::runSafe)).build();
        cache.listenable().addListener(listener);
        return cache;
    }

    /** The standard storage, telling {@code listener} of a node replaced under an unchanged version. */
    static final class ReplacementAwareStorage implements CuratorCacheStorage {

        private final CuratorCacheStorage delegate;
        private final CuratorCacheListener listener;
        private final Executor notifier;

        /** @param notifier runs the listener where the cache runs its own ({@code CuratorFramework::runSafe}) */
        ReplacementAwareStorage(CuratorCacheStorage delegate, CuratorCacheListener listener, Executor notifier) {
            this.delegate = delegate;
            this.listener = listener;
            this.notifier = notifier;
        }

        @Override
        public Optional<ChildData> put(ChildData data) {
            Optional<ChildData> previous = delegate.put(data);
            previous.filter(old -> replacedUnderSameVersion(old, data))
                .ifPresent(old -> notifier.execute(() -> listener.event(CuratorCacheListener.Type.NODE_CHANGED, old, data)));
            return previous;
        }

        /** True when Curator will not report the change: same data version, another write. */
        static boolean replacedUnderSameVersion(ChildData old, ChildData data) {
            if (old.getStat() == null || data.getStat() == null) {
                return false;
            }
            return old.getStat().getVersion() == data.getStat().getVersion()
                && old.getStat().getMzxid() != data.getStat().getMzxid();
        }

        @Override
        public Optional<ChildData> remove(String path) {
            return delegate.remove(path);
        }

        @Override
        public void clear() {
            delegate.clear();
        }

        @Override
        public Optional<ChildData> get(String path) {
            return delegate.get(path);
        }

        @Override
        public int size() {
            return delegate.size();
        }

        @Override
        public Stream<ChildData> stream() {
            return delegate.stream();
        }
    }
}
