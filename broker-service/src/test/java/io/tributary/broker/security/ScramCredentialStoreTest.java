package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.security.ScramCredentialStore.Deletion;
import io.tributary.broker.security.ScramCredentialStore.Upsertion;
import io.tributary.broker.security.ScramCredentialStore.UserScramCredentials;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramCredentialUtils;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * SCRAM credentials in a real in-process ZooKeeper, in Kafka's ZooKeeper-mode layout, seen by a
 * second store as another broker would see them. Each test uses its own user names.
 */
class ScramCredentialStoreTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final org.apache.kafka.clients.admin.ScramMechanism SHA_256 =
        org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256;
    private static final org.apache.kafka.clients.admin.ScramMechanism SHA_512 =
        org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_512;
    private static final org.apache.kafka.clients.admin.ScramMechanism UNKNOWN =
        org.apache.kafka.clients.admin.ScramMechanism.UNKNOWN;

    @TempDir
    static Path dir;
    static EmbeddedZooKeeper zooKeeper;
    static KafkaZkClient zkA;
    static KafkaZkClient zkB;
    static ScramCredentialStore brokerA;
    static ScramCredentialStore brokerB;

    @BeforeAll
    static void start() throws Exception {
        zooKeeper = EmbeddedZooKeeper.start(dir.resolve("zookeeper").toFile(), 0, 200, true);
        zkA = KafkaZkClient.connect(zooKeeper.connectString(), 4000, 20000);
        zkB = KafkaZkClient.connect(zooKeeper.connectString(), 4000, 20000);
        brokerA = new ScramCredentialStore(zkA, Time.SYSTEM);
        brokerA.start(20000);
        brokerB = new ScramCredentialStore(zkB, Time.SYSTEM);
        brokerB.start(20000);
    }

    @AfterAll
    static void stop() {
        brokerA.close();
        brokerB.close();
        zkA.close();
        zkB.close();
        zooKeeper.close();
    }

    @Test
    void storesTheCredentialAsKafkaDoesAndDerivesKeysFromTheSaltedPassword() throws Exception {
        byte[] salt = "a-salt-of-16-byt".getBytes(StandardCharsets.UTF_8);
        assertThat(brokerA.alter(List.of(upsertion("alice", SHA_512, 8192, "alice-secret", salt)), List.of()))
            .containsExactly(Map.entry("alice", ApiError.NONE));

        JsonNode node = JSON.readTree(zkA.getString("/config/users/alice").orElseThrow());
        assertThat(node.path("version").asInt()).isEqualTo(1);
        assertThat(node.path("config").propertyNames()).containsExactly("SCRAM-SHA-512");
        String stored = node.path("config").path("SCRAM-SHA-512").asString();
        assertThat(stored).matches("salt=[A-Za-z0-9+/=]+,stored_key=[A-Za-z0-9+/=]+,server_key=[A-Za-z0-9+/=]+,iterations=8192");
        assertThat(stored).startsWith("salt=" + Base64.getEncoder().encodeToString(salt) + ",");

        ScramFormatter formatter = new ScramFormatter(ScramMechanism.SCRAM_SHA_512);
        byte[] saltedPassword = formatter.saltedPassword("alice-secret", salt, 8192);
        ScramCredential credential = ScramCredentialUtils.credentialFromString(stored);
        assertThat(credential.iterations()).isEqualTo(8192);
        assertThat(credential.storedKey()).isEqualTo(formatter.storedKey(formatter.clientKey(saltedPassword)));
        assertThat(credential.serverKey()).isEqualTo(formatter.serverKey(saltedPassword));
        // The broker that made the change has it in memory before the call returns.
        assertThat(brokerA.credential(ScramMechanism.SCRAM_SHA_512, "alice")).hasValueSatisfying(c ->
            assertThat(c.storedKey()).isEqualTo(credential.storedKey()));
        assertThat(brokerA.credential(ScramMechanism.SCRAM_SHA_256, "alice")).isEmpty();
    }

    @Test
    void everyChangeWritesAKafkaChangeNotification() throws Exception {
        List<String> before = zkA.getChildren("/config/changes");
        brokerA.alter(List.of(upsertion("bob@example.com", SHA_256, 4096, "pw", salt())), List.of());

        List<String> added = new ArrayList<>(zkA.getChildren("/config/changes"));
        added.removeAll(before);
        assertThat(added).singleElement().asString().matches("config_change_\\d{10}");
        JsonNode notification = JSON.readTree(zkA.getString("/config/changes/" + added.get(0)).orElseThrow());
        assertThat(notification.path("version").asInt()).isEqualTo(2);
        assertThat(notification.path("entity_path").asString()).isEqualTo("users/bob%40example.com");
        // The path holds the sanitized name, the cache the name as clients send it.
        assertThat(zkA.getString("/config/users/bob%40example.com")).isPresent();
        assertThat(brokerA.credential(ScramMechanism.SCRAM_SHA_256, "bob@example.com")).isPresent();
    }

    @Test
    void otherConfigsOfTheUserAreKept() throws Exception {
        zkA.curator().create().forPath("/config/users/carol",
            "{\"version\":1,\"config\":{\"producer_byte_rate\":\"1024\"}}".getBytes(StandardCharsets.UTF_8));

        brokerA.alter(List.of(upsertion("carol", SHA_512, 4096, "pw", salt()), upsertion("carol", SHA_256, 4096, "pw", salt())),
            List.of());
        assertThat(config("carol").propertyNames()).containsExactlyInAnyOrder("producer_byte_rate", "SCRAM-SHA-512",
            "SCRAM-SHA-256");
        assertThat(config("carol").path("producer_byte_rate").asString()).isEqualTo("1024");

        assertThat(brokerA.alter(List.of(), List.of(new Deletion("carol", SHA_512))))
            .containsExactly(Map.entry("carol", ApiError.NONE));
        assertThat(config("carol").propertyNames()).containsExactlyInAnyOrder("producer_byte_rate", "SCRAM-SHA-256");
        assertThat(brokerA.credential(ScramMechanism.SCRAM_SHA_512, "carol")).isEmpty();
        assertThat(brokerA.credential(ScramMechanism.SCRAM_SHA_256, "carol")).isPresent();
    }

    @Test
    void anotherBrokerSeesAddedChangedAndDeletedCredentials() {
        brokerA.alter(List.of(upsertion("dave", SHA_512, 4096, "first", salt())), List.of());
        await().atMost(Duration.ofSeconds(30)).until(() -> brokerB.credential(ScramMechanism.SCRAM_SHA_512, "dave")
            .map(ScramCredential::iterations).orElse(0) == 4096);

        brokerA.alter(List.of(upsertion("dave", SHA_512, 8192, "second", salt())), List.of());
        await().atMost(Duration.ofSeconds(30)).until(() -> brokerB.credential(ScramMechanism.SCRAM_SHA_512, "dave")
            .map(ScramCredential::iterations).orElse(0) == 8192);
        assertThat(brokerB.credentialCache().cache("SCRAM-SHA-512", ScramCredential.class).get("dave"))
            .isNotNull();

        brokerB.alter(List.of(), List.of(new Deletion("dave", SHA_512)));
        await().atMost(Duration.ofSeconds(30)).until(() -> brokerA.credential(ScramMechanism.SCRAM_SHA_512, "dave").isEmpty());
    }

    @Test
    void aStoreStartedLaterLoadsExistingCredentials() {
        brokerA.alter(List.of(upsertion("erin", SHA_256, 4096, "pw", salt())), List.of());
        try (ScramCredentialStore later = new ScramCredentialStore(zkB, Time.SYSTEM)) {
            later.start(20000);
            assertThat(later.credential(ScramMechanism.SCRAM_SHA_256, "erin")).isPresent();
        }
    }

    @Test
    void concurrentChangesOfOneUserThroughTwoBrokersAreBothKept() {
        AtomicInteger failures = new AtomicInteger();
        CompletableFuture<Void> a = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 10; i++) {
                failures.addAndGet(brokerA.alter(List.of(upsertion("frank", SHA_256, 4096 + i, "pw", salt())), List.of())
                    .get("frank").isFailure() ? 1 : 0);
            }
        });
        CompletableFuture<Void> b = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 10; i++) {
                failures.addAndGet(brokerB.alter(List.of(upsertion("frank", SHA_512, 4096 + i, "pw", salt())), List.of())
                    .get("frank").isFailure() ? 1 : 0);
            }
        });
        CompletableFuture.allOf(a, b).join();
        assertThat(failures).hasValue(0);
        assertThat(brokerA.describe(List.of("frank"))).singleElement().satisfies(d -> assertThat(d.credentials())
            .extracting(ScramCredentialInfo::mechanism, ScramCredentialInfo::iterations)
            .containsExactly(org.assertj.core.groups.Tuple.tuple(SHA_256, 4105), org.assertj.core.groups.Tuple.tuple(SHA_512, 4105)));
    }

    @Test
    void invalidAlterationsFailTheirUserOnlyWithKafkasErrors() {
        brokerA.alter(List.of(upsertion("gina", SHA_512, 4096, "pw", salt())), List.of());

        Map<String, ApiError> results = brokerA.alter(List.of(
                upsertion("few", SHA_512, 4095, "pw", salt()),
                upsertion("many", SHA_512, 16385, "pw", salt()),
                upsertion("", SHA_512, 4096, "pw", salt()),
                upsertion("mystery", UNKNOWN, 4096, "pw", salt()),
                upsertion("twice", SHA_256, 4096, "pw", salt()),
                upsertion("twice", SHA_256, 8192, "pw", salt()),
                upsertion("gina", SHA_512, 8192, "pw", salt()),
                upsertion("ok", SHA_512, 16384, "pw", salt())),
            List.of(new Deletion("gina", SHA_512), new Deletion("nobody", SHA_256)));

        assertThat(results).containsOnlyKeys("few", "many", "", "mystery", "twice", "gina", "nobody", "ok");
        assertThat(results.get("few").error()).isEqualTo(Errors.UNACCEPTABLE_CREDENTIAL);
        assertThat(results.get("few").message()).isEqualTo("Too few iterations");
        assertThat(results.get("many").error()).isEqualTo(Errors.UNACCEPTABLE_CREDENTIAL);
        assertThat(results.get("many").message()).isEqualTo("Too many iterations");
        assertThat(results.get("").error()).isEqualTo(Errors.UNACCEPTABLE_CREDENTIAL);
        assertThat(results.get("mystery").error()).isEqualTo(Errors.UNSUPPORTED_SASL_MECHANISM);
        assertThat(results.get("twice").error()).isEqualTo(Errors.DUPLICATE_RESOURCE);
        assertThat(results.get("gina").error()).as("upsert and delete of one mechanism").isEqualTo(Errors.DUPLICATE_RESOURCE);
        assertThat(results.get("nobody").error()).isEqualTo(Errors.RESOURCE_NOT_FOUND);
        assertThat(results.get("ok")).isEqualTo(ApiError.NONE);

        assertThat(zkA.getString("/config/users/few")).isEmpty();
        assertThat(zkA.getString("/config/users/twice")).isEmpty();
        assertThat(brokerA.credential(ScramMechanism.SCRAM_SHA_512, "gina").map(ScramCredential::iterations)).hasValue(4096);
        assertThat(ScramMechanism.SCRAM_SHA_512.maxIterations()).isEqualTo(ScramCredentialAdmin.MAX_ITERATIONS);
    }

    @Test
    void aDeletionOfAMissingMechanismAbandonsTheUsersOtherChanges() {
        brokerA.alter(List.of(upsertion("hank", SHA_256, 4096, "pw", salt())), List.of());

        Map<String, ApiError> results = brokerA.alter(List.of(upsertion("hank", SHA_256, 8192, "pw", salt())),
            List.of(new Deletion("hank", SHA_512)));

        assertThat(results.get("hank").error()).isEqualTo(Errors.RESOURCE_NOT_FOUND);
        assertThat(brokerA.credential(ScramMechanism.SCRAM_SHA_256, "hank").map(ScramCredential::iterations)).hasValue(4096);
    }

    @Test
    void describeListsUsersWithCredentialsOrReportsEachUserAskedFor() {
        brokerA.alter(List.of(upsertion("ivy", SHA_512, 8192, "pw", salt()), upsertion("ivy", SHA_256, 4096, "pw", salt()),
            upsertion("jack", SHA_512, 4096, "pw", salt())), List.of());
        brokerA.alter(List.of(), List.of(new Deletion("jack", SHA_512))); // jack's node stays, empty

        List<UserScramCredentials> all = brokerA.describe(List.of());
        assertThat(all).extracting(UserScramCredentials::user).isSorted().contains("ivy").doesNotContain("jack");
        assertThat(all).filteredOn(d -> d.user().equals("ivy")).singleElement().satisfies(d -> {
            assertThat(d.error()).isEqualTo(ApiError.NONE);
            assertThat(d.credentials()).extracting(ScramCredentialInfo::mechanism, ScramCredentialInfo::iterations)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(SHA_256, 4096),
                    org.assertj.core.groups.Tuple.tuple(SHA_512, 8192));
        });

        List<UserScramCredentials> some = brokerA.describe(List.of("jack", "ivy", "", "ivy-twice", "ivy-twice", "zed"));
        assertThat(some).extracting(UserScramCredentials::user).containsExactly("jack", "ivy", "", "ivy-twice", "zed");
        assertThat(some).extracting(d -> d.error().error()).containsExactly(Errors.RESOURCE_NOT_FOUND, Errors.NONE,
            Errors.RESOURCE_NOT_FOUND, Errors.DUPLICATE_RESOURCE, Errors.RESOURCE_NOT_FOUND);
        assertThat(some.get(4).error().message()).isEqualTo("Attempt to describe a user credential that does not exist: zed");
    }

    private static JsonNode config(String user) throws Exception {
        return JSON.readTree(zkA.getString("/config/users/" + user).orElseThrow()).path("config");
    }

    private static byte[] salt() {
        return ScramFormatter.secureRandomBytes(new java.security.SecureRandom());
    }

    /** An upsertion as the Admin client makes it: the password salted on the client. */
    private static Upsertion upsertion(String user, org.apache.kafka.clients.admin.ScramMechanism mechanism, int iterations,
                                       String password, byte[] salt) {
        try {
            ScramMechanism internal = mechanism == UNKNOWN ? ScramMechanism.SCRAM_SHA_256
                : ScramMechanism.forMechanismName(mechanism.mechanismName());
            byte[] saltedPassword = new ScramFormatter(internal).saltedPassword(password, salt, Math.max(iterations, 1));
            return new Upsertion(user, mechanism, iterations, salt, saltedPassword);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
