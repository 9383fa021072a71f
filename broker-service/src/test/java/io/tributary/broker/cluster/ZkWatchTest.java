package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.cache.CuratorCacheStorage;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/**
 * A node deleted and created again while the broker was away from ZooKeeper comes back with the same data version;
 * Curator stores it silently, and {@link ZkWatch}'s storage reports it (fault campaign seed 3002: a former controller
 * named itself the controller for good after its session expired).
 */
class ZkWatchTest {

    private final List<String> events = new ArrayList<>();
    private final CuratorCacheStorage storage = new ZkWatch.ReplacementAwareStorage(CuratorCacheStorage.standard(),
        (type, oldData, data) -> events.add(type + " " + text(oldData) + " -> " + text(data)), Runnable::run);

    @Test
    void aNodeReplacedUnderTheSameVersionIsReportedAsChanged() {
        storage.put(node("/controller", "{\"brokerid\":1}", 0, 100));
        assertThat(events).isEmpty();

        storage.put(node("/controller", "{\"brokerid\":3}", 0, 250));

        assertThat(events).containsExactly("NODE_CHANGED {\"brokerid\":1} -> {\"brokerid\":3}");
        assertThat(storage.get("/controller").map(ZkWatchTest::text)).contains("{\"brokerid\":3}");
    }

    @Test
    void anUnchangedNodeOrANewVersionIsLeftToCurator() {
        storage.put(node("/config/topics/orders", "a", 0, 100));
        storage.put(node("/config/topics/orders", "a", 0, 100)); // read again after a reconnect, unchanged
        storage.put(node("/config/topics/orders", "b", 1, 180)); // Curator reports a new version itself
        storage.remove("/config/topics/orders");
        storage.put(node("/config/topics/orders", "c", 0, 300)); // created after a delete Curator saw

        assertThat(events).isEmpty();
    }

    private static ChildData node(String path, String data, int version, long mzxid) {
        Stat stat = new Stat();
        stat.setVersion(version);
        stat.setMzxid(mzxid);
        stat.setCzxid(mzxid - version);
        return new ChildData(path, stat, data.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(ChildData data) {
        return data == null ? "none" : new String(data.getData(), StandardCharsets.UTF_8);
    }
}
