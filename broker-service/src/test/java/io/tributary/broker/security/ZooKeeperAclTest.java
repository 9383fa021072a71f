package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.cluster.ChangeNotificationPurger;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.ZkPaths;
import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.MockTime;
import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code broker.zookeeper-set-acl} and digest credentials, two brokers run a replicated topic
 * as usual (they share the identity), while a ZooKeeper client without the credentials may read the
 * cluster's state but change nothing (nor purge change notifications, which the cluster's identity
 * may), and cannot read the SCRAM credentials.
 */
class ZooKeeperAclTest {

    private static final String CREDENTIALS = "tributary:zk-digest-secret";

    @TempDir
    Path dir;

    private static ZooKeeper connect(String connectString, String digest) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertThat(connected.await(20, TimeUnit.SECONDS)).isTrue();
        if (digest != null) {
            zk.addAuthInfo("digest", digest.getBytes(StandardCharsets.UTF_8));
        }
        return zk;
    }

    @Test
    void onlyTheClustersIdentityMayChangeZnodesOrReadCredentials() throws Exception {
        try (LogCapture logs = LogCapture.open();
             TestCluster cluster = TestCluster.start(dir, 2, Map.of("broker.zookeeper-set-acl", "true",
                 "broker.zookeeper-digest-credentials", CREDENTIALS,
                 "broker.zookeeper-connect", "{zookeeper}/tributary"))) {
            try (Admin admin = cluster.admin()) {
                admin.createTopics(List.of(new NewTopic("guarded", 1, (short) 2))).all().get();
                admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice",
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "alice-secret"))).all().get();
            }
            try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
                producer.send(new ProducerRecord<>("guarded", new byte[] {1})).get();
            }
            // The cluster lives under the chroot /tributary, which the first broker created.
            String connect = cluster.zooKeeper().connectString() + "/tributary";
            ZooKeeper anonymous = connect(connect, null);
            try {
                assertThat(anonymous.getData("/brokers/ids/0", false, null)).isNotEmpty();
                assertThat(anonymous.getData("/brokers/topics/guarded", false, null)).isNotEmpty();
                assertThatThrownBy(() -> anonymous.setData("/brokers/topics/guarded", new byte[0], -1))
                    .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> anonymous.create("/brokers/topics/intruder", new byte[0],
                    org.apache.zookeeper.ZooDefs.Ids.OPEN_ACL_UNSAFE, org.apache.zookeeper.CreateMode.PERSISTENT))
                    .isInstanceOf(KeeperException.NoAuthException.class);
                // Deleting needs DELETE on the parent: the chroot's own ACL covers the top-level znodes.
                assertThatThrownBy(() -> anonymous.delete("/controller", -1))
                    .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> anonymous.delete("/brokers/topics/guarded/partitions/0/state", -1))
                    .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> anonymous.getData("/config/users/alice", false, null))
                    .isInstanceOf(KeeperException.NoAuthException.class);
                // Change notifications may be read but not purged by outsiders.
                List<String> notifications = anonymous.getChildren("/config/changes", false);
                assertThat(notifications).anyMatch(n -> n.startsWith("config_change_"));
                assertThatThrownBy(() -> anonymous.delete("/config/changes/" + notifications.get(0), -1))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            } finally {
                anonymous.close();
            }
            ZooKeeper wrong = connect(connect, "tributary:not-the-secret");
            try {
                assertThatThrownBy(() -> wrong.setData("/brokers/topics/guarded", new byte[0], -1))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            } finally {
                wrong.close();
            }
            ZooKeeper member = connect(connect, CREDENTIALS);
            try {
                assertThat(new String(member.getData("/config/users/alice", false, null), StandardCharsets.UTF_8))
                    .contains("SCRAM-SHA-512");
            } finally {
                member.close();
            }
            // The cluster's identity purges them, as each broker does once they are 15 minutes old.
            try (KafkaZkClient broker = KafkaZkClient.connect(connect, 10_000, 20_000, CREDENTIALS, true)) {
                ChangeNotificationPurger purger = new ChangeNotificationPurger(broker,
                    List.of(ZkPaths.CONFIG_CHANGE_PREFIX), ChangeNotificationPurger.DEFAULT_EXPIRATION_MS,
                    new MockTime(System.currentTimeMillis() + 2 * ChangeNotificationPurger.DEFAULT_EXPIRATION_MS), "config");
                assertThat(purger.purge()).isPositive();
                assertThat(broker.getChildren(ZkPaths.CONFIG_CHANGES)).noneMatch(n -> n.startsWith("config_change_"));
            }
            logs.assertNoLineContains("zk-digest-secret", "alice-secret");
        }
    }
}
