package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogDirectoriesTest {

    @TempDir
    File tmp;

    private File a;
    private File b;
    private File c;
    private LogDirectories dirs;

    @BeforeEach
    void dirs() {
        a = new File(tmp, "a");
        b = new File(tmp, "b");
        c = new File(tmp, "c");
        dirs = new LogDirectories(List.of(a, b, c));
    }

    @Test
    void atLeastOneDirectoryIsRequired() {
        assertThatThrownBy(() -> new LogDirectories(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFileUnderADirectoryTakesThatDirectoryOfflineOnce() {
        assertThat(dirs.markOffline(new File(b, "events-0/00000000000000000000.log"))).isEqualTo(b);

        assertThat(dirs.markOffline(new File(b, "events-1"))).as("already offline").isNull();
        assertThat(dirs.markOffline(new File(tmp, "elsewhere"))).as("in no log directory").isNull();
        assertThat(dirs.isOffline(b)).isTrue();
        assertThat(dirs.offline()).containsExactly(b);
        assertThat(dirs.online()).containsExactly(a, c);
        assertThat(dirs.all()).containsExactly(a, b, c);
    }

    @Test
    void leastLoadedIsTheOnlineDirectoryWithFewestPartitionsFirstListedOnTies() {
        assertThat(dirs.leastLoaded(() -> List.of())).isEqualTo(a);
        assertThat(dirs.leastLoaded(() -> List.of(a, b))).isEqualTo(c);
        assertThat(dirs.leastLoaded(() -> List.of(a, a, b, c))).isEqualTo(b);

        dirs.markOffline(b);
        assertThat(dirs.leastLoaded(() -> List.of(a, a, c))).as("an offline directory gets no new log").isEqualTo(c);
    }

    @Test
    void withOneOnlineDirectoryThePartitionsAreNotCounted() {
        dirs.markOffline(a);
        dirs.markOffline(c);

        assertThat(dirs.leastLoaded(() -> {
            throw new AssertionError("counted the partitions of a single online directory");
        })).isEqualTo(b);
    }

    @Test
    void leastLoadedFailsWhenEveryDirectoryIsOffline() {
        dirs.markOffline(a);
        dirs.markOffline(b);
        dirs.markOffline(c);

        assertThatThrownBy(() -> dirs.leastLoaded(() -> List.of())).isInstanceOf(KafkaStorageException.class)
            .hasMessageContaining("Every log directory is offline");
    }

    @Test
    void lockingCreatesTheDirectoriesAndWritesMetaProperties() throws IOException {
        dirs.lockAndVerify("cluster-A", 1);
        try {
            for (File dir : List.of(a, b, c)) {
                assertThat(new File(dir, LogDirectories.LOCK_FILE)).exists();
                Properties meta = Utils.loadProps(new File(dir, LogDirectories.META_PROPERTIES).getPath());
                assertThat(meta.getProperty("cluster.id")).isEqualTo("cluster-A");
                assertThat(meta.getProperty("broker.id")).isEqualTo("1");
            }
        } finally {
            dirs.releaseLocks();
        }
    }

    @Test
    void aLockedDirectoryKeepsOthersOutUntilReleased() throws IOException {
        dirs.lockAndVerify("cluster-A", 1);
        LogDirectories second = new LogDirectories(List.of(c));

        assertThatThrownBy(() -> second.lockAndVerify("cluster-A", 1)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("in use");

        dirs.releaseLocks();
        second.lockAndVerify("cluster-A", 1);
        second.releaseLocks();
    }

    @Test
    void aDirectoryOfAnotherClusterOrBrokerIsRefusedAndLeftUnlocked() throws IOException {
        dirs.lockAndVerify("cluster-A", 1);
        dirs.releaseLocks();

        assertThatThrownBy(() -> dirs.lockAndVerify("cluster-B", 1)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("belongs to cluster cluster-A");
        assertThatThrownBy(() -> dirs.lockAndVerify("cluster-A", 2)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("belongs to broker 1");

        LogDirectories right = new LogDirectories(List.of(a, b, c));
        right.lockAndVerify("cluster-A", 1);
        right.releaseLocks();
    }
}
