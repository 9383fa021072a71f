package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.cluster.ChangeNotificationPurger;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.ZkPaths;
import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.MockTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Change notifications ({@code /config/changes}, {@code /kafka-acl-changes},
 * {@code /kafka-acl-extended-changes}) are purged as Kafka's brokers purged them, in a real
 * in-process ZooKeeper with a mock clock for "now". Each test runs in its own chroot.
 */
class ChangeNotificationPurgeTest {

    private static final long EXPIRATION_MS = 60_000;
    private static final String ACL_PREFIX = ZkPaths.KAFKA_ACL_CHANGES + "/" + ZkPaths.ACL_CHANGE_SEQUENCE_PREFIX;
    private static final String EXTENDED_ACL_PREFIX =
        ZkPaths.KAFKA_ACL_EXTENDED_CHANGES + "/" + ZkPaths.ACL_CHANGE_SEQUENCE_PREFIX;
    private static final List<String> ROOTS =
        List.of(ZkPaths.CONFIG_CHANGES, ZkPaths.KAFKA_ACL_CHANGES, ZkPaths.KAFKA_ACL_EXTENDED_CHANGES);

    @TempDir
    static Path dir;
    static EmbeddedZooKeeper zooKeeper;

    @BeforeAll
    static void start() throws Exception {
        zooKeeper = EmbeddedZooKeeper.start(dir.resolve("zookeeper").toFile(), 0, 200, true);
    }

    @AfterAll
    static void stop() {
        zooKeeper.close();
    }

    private static KafkaZkClient connect(String chroot) {
        return KafkaZkClient.connect(zooKeeper.connectString() + "/" + chroot, 4000, 20000);
    }

    @Test
    void notificationsOlderThanTheExpirationAreDeletedAfterTheNextChangeYoungerOnesRemain() throws Exception {
        MockTime time = new MockTime(0); // before every ctime: nothing is expired until the test says so
        try (KafkaZkClient zkA = connect("expiry");
             KafkaZkClient zkB = connect("expiry");
             AclStore aclsA = new AclStore(zkA, EXPIRATION_MS, time);
             ScramCredentialStore scramA = new ScramCredentialStore(zkA, EXPIRATION_MS, time);
             AclStore aclsB = new AclStore(zkB, Time.SYSTEM);
             ScramCredentialStore scramB = new ScramCredentialStore(zkB, Time.SYSTEM)) {
            aclsA.start(20000);
            scramA.start(20000);
            aclsB.start(20000);
            scramB.start(20000);
            // Changes broker B makes: one notification in each root.
            assertThat(aclsB.create(List.of(binding("old-topic", PatternType.LITERAL), binding("old-", PatternType.PREFIXED))))
                .allMatch(r -> r.error().isSuccess());
            assertThat(scramB.alter(List.of(upsertion("old-user")), List.of())).containsEntry("old-user", ApiError.NONE);
            // Not a notification: never deleted, however old.
            zkB.curator().create().forPath(ZkPaths.CONFIG_CHANGES + "/unrelated");
            List<String> old = notifications(zkB);
            assertThat(old).hasSize(3);
            long newestOldCtime = old.stream().mapToLong(path -> ctime(zkB, path)).max().orElseThrow();
            // Broker A has seen the old changes.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(aclsA.acls(AclBindingFilter.ANY)).hasSize(2);
                assertThat(scramA.credential(ScramMechanism.SCRAM_SHA_256, "old-user")).isPresent();
            });
            // What follows is created over 100 ms after the old ones by ZooKeeper's clock (ctime is the server's),
            // as a probe node created now shows.
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() ->
                ctime(zkB, zkB.curator().create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath("/clock-probe-"))
                    > newestOldCtime + 100);
            // No condition to await: the purge passes A ran for the old changes leave no trace, so they are given
            // 300 ms to end before A's clock moves (a late one would purge the old notifications by that clock).
            Thread.sleep(300);
            time.advance(newestOldCtime + EXPIRATION_MS + 50);
            // Expired now by the clock, but no change has been processed since.
            assertThat(notifications(zkB)).containsAll(old);

            assertThat(aclsB.create(List.of(binding("new-topic", PatternType.LITERAL)))).allMatch(r -> r.error().isSuccess());
            assertThat(scramB.alter(List.of(upsertion("new-user")), List.of())).containsEntry("new-user", ApiError.NONE);
            // The new ones are at most EXPIRATION_MS - 50 ms old by the clock; the old ones over EXPIRATION_MS.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(notifications(zkB))
                .doesNotContainAnyElementsOf(old)
                .hasSize(2)
                .anyMatch(p -> p.startsWith(ACL_PREFIX))
                .anyMatch(p -> p.startsWith(ZkPaths.CONFIG_CHANGE_PREFIX)));
            assertThat(zkB.curator().checkExists().forPath(ZkPaths.CONFIG_CHANGES + "/unrelated")).isNotNull();
            // Nothing lost: both brokers still hold every ACL and credential.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (AclStore acls : List.of(aclsA, aclsB)) {
                    assertThat(acls.acls(AclBindingFilter.ANY)).hasSize(3);
                }
                for (ScramCredentialStore scram : List.of(scramA, scramB)) {
                    assertThat(scram.credential(ScramMechanism.SCRAM_SHA_256, "old-user")).isPresent();
                    assertThat(scram.credential(ScramMechanism.SCRAM_SHA_256, "new-user")).isPresent();
                }
            });
        }
    }

    @Test
    void twoBrokersPurgingAtOnceDeleteEachNotificationOnceWithoutFailing() throws Exception {
        try (KafkaZkClient zkA = connect("concurrent");
             KafkaZkClient zkB = connect("concurrent")) {
            for (int i = 0; i < 40; i++) {
                for (String prefix : List.of(ACL_PREFIX, EXTENDED_ACL_PREFIX, ZkPaths.CONFIG_CHANGE_PREFIX)) {
                    zkA.curator().create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                        .forPath(prefix);
                }
            }
            MockTime later = new MockTime(System.currentTimeMillis() + 10 * EXPIRATION_MS);
            List<String> prefixes = List.of(ACL_PREFIX, EXTENDED_ACL_PREFIX, ZkPaths.CONFIG_CHANGE_PREFIX);
            ChangeNotificationPurger brokerA = new ChangeNotificationPurger(zkA, prefixes, EXPIRATION_MS, later, "a");
            ChangeNotificationPurger brokerB = new ChangeNotificationPurger(zkB, prefixes, EXPIRATION_MS, later, "b");
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<Integer>> purges = new ArrayList<>();
            for (ChangeNotificationPurger purger : List.of(brokerA, brokerB, brokerA, brokerB)) {
                purges.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return purger.purge();
                }));
            }
            go.countDown();
            int deleted = 0;
            for (CompletableFuture<Integer> purge : purges) {
                deleted += purge.get(60, TimeUnit.SECONDS); // throws when a purge failed
            }
            assertThat(deleted).isEqualTo(120);
            assertThat(notifications(zkA)).isEmpty();
        }
    }

    @Test
    void storesOfTwoBrokersPurgingTheSameNotificationsLogNoFailure() throws Exception {
        MockTime later = new MockTime(System.currentTimeMillis() + 10 * EXPIRATION_MS);
        try (LogCapture logs = LogCapture.open();
             KafkaZkClient zkA = connect("concurrent-stores");
             KafkaZkClient zkB = connect("concurrent-stores");
             AclStore brokerA = new AclStore(zkA, EXPIRATION_MS, later);
             AclStore brokerB = new AclStore(zkB, EXPIRATION_MS, later)) {
            brokerA.start(20000);
            brokerB.start(20000);
            CompletableFuture<?> a = CompletableFuture.runAsync(() -> IntStream.range(0, 15).forEach(i ->
                brokerA.create(List.of(binding("a-" + i, PatternType.LITERAL), binding("a-" + i, PatternType.PREFIXED)))));
            CompletableFuture<?> b = CompletableFuture.runAsync(() -> IntStream.range(0, 15).forEach(i ->
                brokerB.create(List.of(binding("b-" + i, PatternType.LITERAL), binding("b-" + i, PatternType.PREFIXED)))));
            CompletableFuture.allOf(a, b).get(60, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(notifications(zkA)).isEmpty());
            assertThat(brokerA.acls(AclBindingFilter.ANY)).hasSize(60);
            assertThat(logs.lines()).noneMatch(line -> line.contains("Could not purge"));
        }
    }

    @Test
    void aBrokerStartedAfterNotificationsWerePurgedHasEveryAclAndCredential() throws Exception {
        MockTime later = new MockTime(System.currentTimeMillis() + 10 * EXPIRATION_MS);
        try (KafkaZkClient zkA = connect("late");
             AclStore aclsA = new AclStore(zkA, EXPIRATION_MS, later);
             ScramCredentialStore scramA = new ScramCredentialStore(zkA, EXPIRATION_MS, later)) {
            aclsA.start(20000);
            scramA.start(20000);
            aclsA.create(List.of(binding("kept", PatternType.LITERAL), binding("kept-", PatternType.PREFIXED)));
            scramA.alter(List.of(upsertion("kept-user")), List.of());
            scramA.alter(List.of(upsertion("gone-user")), List.of());
            scramA.alter(List.of(), List.of(new ScramCredentialStore.Deletion("gone-user",
                org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256)));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(notifications(zkA)).isEmpty());
        }
        try (KafkaZkClient zkC = connect("late");
             AclStore aclsC = new AclStore(zkC, Time.SYSTEM);
             ScramCredentialStore scramC = new ScramCredentialStore(zkC, Time.SYSTEM)) {
            aclsC.start(20000);
            scramC.start(20000);
            assertThat(aclsC.acls(AclBindingFilter.ANY)).containsExactlyInAnyOrder(
                binding("kept", PatternType.LITERAL), binding("kept-", PatternType.PREFIXED));
            assertThat(scramC.credential(ScramMechanism.SCRAM_SHA_256, "kept-user")).isPresent();
            assertThat(scramC.credential(ScramMechanism.SCRAM_SHA_256, "gone-user")).isEmpty();
        }
    }

    @Test
    void afterItsSessionExpiredABrokerStillPurgesAndHoldsWhatChangedMeanwhile() throws Exception {
        MockTime later = new MockTime(System.currentTimeMillis() + 10 * EXPIRATION_MS);
        try (KafkaZkClient zkA = connect("expired");
             KafkaZkClient zkB = connect("expired");
             AclStore aclsA = new AclStore(zkA, EXPIRATION_MS, later);
             ScramCredentialStore scramA = new ScramCredentialStore(zkA, EXPIRATION_MS, later);
             AclStore aclsB = new AclStore(zkB, Time.SYSTEM);
             ScramCredentialStore scramB = new ScramCredentialStore(zkB, Time.SYSTEM)) {
            aclsA.start(20000);
            scramA.start(20000);
            aclsB.start(20000);
            scramB.start(20000);
            aclsB.create(List.of(binding("before", PatternType.LITERAL)));
            scramB.alter(List.of(upsertion("before-user")), List.of());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(notifications(zkB)).isEmpty());

            long oldSession = zkA.sessionId();
            zooKeeper.expireSession(oldSession);
            aclsB.create(List.of(binding("during", PatternType.PREFIXED)));
            aclsB.delete(List.of(binding("before", PatternType.LITERAL).toFilter()));
            scramB.alter(List.of(upsertion("during-user")), List.of());
            await().atMost(Duration.ofSeconds(30)).until(() -> zkA.sessionId() != 0 && zkA.sessionId() != oldSession);

            // Broker B does not purge (15 minutes by the system clock): broker A, on its new session, does.
            aclsB.create(List.of(binding("after", PatternType.LITERAL)));
            scramB.alter(List.of(upsertion("after-user")), List.of());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(notifications(zkB)).isEmpty();
                assertThat(aclsA.acls(AclBindingFilter.ANY)).containsExactlyInAnyOrder(
                    binding("during", PatternType.PREFIXED), binding("after", PatternType.LITERAL));
                for (String user : List.of("before-user", "during-user", "after-user")) {
                    assertThat(scramA.credential(ScramMechanism.SCRAM_SHA_256, user)).as(user).isPresent();
                }
            });
        }
    }

    /** Every notification node of the three roots, as full paths. */
    private static List<String> notifications(KafkaZkClient zk) throws Exception {
        List<String> paths = new ArrayList<>();
        for (String root : ROOTS) {
            if (zk.curator().checkExists().forPath(root) == null) {
                continue;
            }
            for (String child : zk.curator().getChildren().forPath(root)) {
                if (child.startsWith("config_change_") || child.startsWith(ZkPaths.ACL_CHANGE_SEQUENCE_PREFIX)) {
                    paths.add(root + "/" + child);
                }
            }
        }
        return paths;
    }

    private static long ctime(KafkaZkClient zk, String path) {
        try {
            Stat stat = zk.curator().checkExists().forPath(path);
            return stat.getCtime();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static AclBinding binding(String name, PatternType patternType) {
        return new AclBinding(new ResourcePattern(ResourceType.TOPIC, name, patternType),
            new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW));
    }

    private static ScramCredentialStore.Upsertion upsertion(String user) {
        byte[] salt = new byte[16];
        byte[] saltedPassword = new byte[32];
        ThreadLocalRandom.current().nextBytes(salt);
        ThreadLocalRandom.current().nextBytes(saltedPassword);
        return new ScramCredentialStore.Upsertion(user, org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256,
            4096, salt, saltedPassword);
    }
}
