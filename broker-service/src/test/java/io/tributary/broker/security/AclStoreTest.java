package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.security.AclStore.CreateResult;
import io.tributary.broker.security.AclStore.DeleteResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * ACLs in a real in-process ZooKeeper, in the layout of Kafka's ZooKeeper-mode AclAuthorizer,
 * seen by a second store as another broker would see them. Each test uses its own resource names.
 */
class AclStoreTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path dir;
    static EmbeddedZooKeeper zooKeeper;
    static KafkaZkClient zkA;
    static KafkaZkClient zkB;
    static AclStore brokerA;
    static AclStore brokerB;

    @BeforeAll
    static void start() throws Exception {
        zooKeeper = EmbeddedZooKeeper.start(dir.resolve("zookeeper").toFile(), 0, 200, true);
        zkA = KafkaZkClient.connect(zooKeeper.connectString(), 4000, 20000);
        zkB = KafkaZkClient.connect(zooKeeper.connectString(), 4000, 20000);
        // An ACL Kafka wrote before these brokers started.
        zkA.curator().create().creatingParentsIfNeeded().forPath("/kafka-acl/Topic/preexisting", bytes(
            "{\"version\":1,\"acls\":[{\"principal\":\"User:old\",\"permissionType\":\"Deny\",\"operation\":\"Write\",\"host\":\"10.0.0.1\"}]}"));
        brokerA = new AclStore(zkA, Time.SYSTEM);
        brokerA.start(20000);
        brokerB = new AclStore(zkB, Time.SYSTEM);
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
    void aclsKafkaWroteAreLoadedAtStart() {
        AclBinding old = binding(ResourceType.TOPIC, "preexisting", PatternType.LITERAL, "User:old", "10.0.0.1",
            AclOperation.WRITE, AclPermissionType.DENY);
        assertThat(brokerA.acls(byName("preexisting"))).containsExactly(old);
        assertThat(brokerB.acls(byName("preexisting"))).containsExactly(old);
    }

    @Test
    void literalAclIsStoredAtKafkasPathWithKafkasJsonAndALiteralChangeNotification() throws Exception {
        List<String> before = zkA.getChildren("/kafka-acl-changes");
        AclBinding read = read(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice");

        assertThat(brokerA.create(List.of(read))).containsExactly(new CreateResult(read, ApiError.NONE));

        JsonNode node = JSON.readTree(zkA.getString("/kafka-acl/Topic/orders").orElseThrow());
        assertThat(node.path("version").asInt()).isEqualTo(1);
        assertThat(node.path("acls")).hasSize(1);
        JsonNode acl = node.path("acls").get(0);
        assertThat(acl.propertyNames()).containsExactlyInAnyOrder("principal", "permissionType", "operation", "host");
        assertThat(acl.path("principal").asString()).isEqualTo("User:alice");
        assertThat(acl.path("permissionType").asString()).isEqualTo("Allow");
        assertThat(acl.path("operation").asString()).isEqualTo("Read");
        assertThat(acl.path("host").asString()).isEqualTo("*");

        String notification = singleNewChild("/kafka-acl-changes", before);
        assertThat(notification).matches("acl_changes_\\d{10}");
        assertThat(zkA.getString("/kafka-acl-changes/" + notification)).hasValue("TOPIC:orders");
        // The broker that made the change has it in view before the call returns.
        assertThat(brokerA.acls(byName("orders"))).containsExactly(read);
    }

    @Test
    void prefixedAclIsStoredUnderTheExtendedPathWithAJsonChangeNotification() throws Exception {
        List<String> before = zkA.getChildren("/kafka-acl-extended-changes");
        AclBinding write = binding(ResourceType.TOPIC, "payments-", PatternType.PREFIXED, "User:bob", "*",
            AclOperation.WRITE, AclPermissionType.ALLOW);
        AclBinding describeConfigs = binding(ResourceType.TOPIC, "payments-", PatternType.PREFIXED, "User:bob", "*",
            AclOperation.DESCRIBE_CONFIGS, AclPermissionType.DENY);

        assertThat(brokerA.create(List.of(write, describeConfigs))).extracting(CreateResult::error)
            .containsExactly(ApiError.NONE, ApiError.NONE);

        JsonNode node = JSON.readTree(zkA.getString("/kafka-acl-extended/prefixed/Topic/payments-").orElseThrow());
        assertThat(node.path("acls").valueStream().map(a -> a.path("operation").asString() + "/"
            + a.path("permissionType").asString())).containsExactly("Write/Allow", "DescribeConfigs/Deny");
        // Both bindings of one resource in one write: one notification.
        String notification = singleNewChild("/kafka-acl-extended-changes", before);
        assertThat(notification).matches("acl_changes_\\d{10}");
        JsonNode change = JSON.readTree(zkA.getString("/kafka-acl-extended-changes/" + notification).orElseThrow());
        assertThat(change.path("version").asInt()).isEqualTo(1);
        assertThat(change.path("resourceType").asString()).isEqualTo("TOPIC");
        assertThat(change.path("name").asString()).isEqualTo("payments-");
        assertThat(change.path("patternType").asString()).isEqualTo("PREFIXED");
        assertThat(zkA.getString("/kafka-acl/Topic/payments-")).isEmpty();
    }

    @Test
    void resourceTypesAndOperationsAreWrittenInKafkasPascalCase() throws Exception {
        AclBinding idempotent = binding(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, "User:producer", "*",
            AclOperation.IDEMPOTENT_WRITE, AclPermissionType.ALLOW);
        AclBinding transactional = binding(ResourceType.TRANSACTIONAL_ID, "tx-1", PatternType.LITERAL, "User:producer",
            "*", AclOperation.WRITE, AclPermissionType.ALLOW);

        assertThat(brokerA.create(List.of(idempotent, transactional))).extracting(CreateResult::error)
            .containsOnly(ApiError.NONE);

        assertThat(zkA.getString("/kafka-acl/Cluster/kafka-cluster").orElseThrow()).contains("\"operation\":\"IdempotentWrite\"");
        assertThat(zkA.getString("/kafka-acl/TransactionalId/tx-1")).isPresent();
        await().atMost(Duration.ofSeconds(30)).until(() -> brokerB.acls(AclBindingFilter.ANY).containsAll(
            List.of(idempotent, transactional)));
    }

    @Test
    void nodesWrittenByOthersAreReadInAnyCaseOfTheNames() throws Exception {
        zkA.curator().create().forPath("/kafka-acl/Group/legacy-group", bytes("{\"version\":1,\"acls\":["
            + "{\"principal\":\"User:carol\",\"permissionType\":\"ALLOW\",\"operation\":\"IDEMPOTENT_WRITE\",\"host\":\"*\"},"
            + "{\"principal\":\"User:carol\",\"permissionType\":\"allow\",\"operation\":\"describeconfigs\",\"host\":\"*\"},"
            + "{\"principal\":\"User:carol\",\"permissionType\":\"Allow\",\"operation\":\"Teleport\",\"host\":\"*\"}]}"));

        await().atMost(Duration.ofSeconds(30)).until(() -> brokerB.acls(byName("legacy-group")).size() == 2);
        assertThat(brokerB.acls(byName("legacy-group"))).extracting(b -> b.entry().operation())
            .containsExactlyInAnyOrder(AclOperation.IDEMPOTENT_WRITE, AclOperation.DESCRIBE_CONFIGS);
    }

    @Test
    void deletingTheLastAclDeletesTheNodeAndNotifies() throws Exception {
        AclBinding read = read(ResourceType.GROUP, "short-lived", PatternType.LITERAL, "User:dave");
        brokerA.create(List.of(read));
        assertThat(zkA.getString("/kafka-acl/Group/short-lived")).isPresent();
        List<String> before = zkA.getChildren("/kafka-acl-changes");

        List<DeleteResult> results = brokerA.delete(List.of(byName("short-lived")));

        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.deleted()).containsExactly(read);
            assertThat(r.error()).isEqualTo(ApiError.NONE);
        });
        assertThat(zkA.getString("/kafka-acl/Group/short-lived")).isEmpty();
        assertThat(zkA.getString("/kafka-acl-changes/" + singleNewChild("/kafka-acl-changes", before)))
            .hasValue("GROUP:short-lived");
        assertThat(brokerA.acls(byName("short-lived"))).isEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> brokerB.acls(byName("short-lived")).isEmpty());
    }

    @Test
    void aSecondStoreSeesAddsAndRemoves() {
        AclBinding alice = read(ResourceType.TOPIC, "shared", PatternType.LITERAL, "User:alice");
        AclBinding bob = read(ResourceType.TOPIC, "shared", PatternType.LITERAL, "User:bob");
        brokerA.create(List.of(alice, bob));
        await().atMost(Duration.ofSeconds(30)).until(() -> brokerB.acls(byName("shared")).size() == 2);

        brokerA.delete(List.of(new AclBindingFilter(new ResourcePatternFilter(ResourceType.ANY, "shared", PatternType.ANY),
            new AccessControlEntryFilter("User:alice", null, AclOperation.ANY, AclPermissionType.ANY))));

        await().atMost(Duration.ofSeconds(30)).until(() -> brokerB.acls(byName("shared")).size() == 1);
        assertThat(brokerB.acls(byName("shared"))).containsExactly(bob);
        assertThat(zkB.getString("/kafka-acl/Topic/shared")).isPresent();
    }

    @Test
    void aListenerGetsTheCurrentSetThenEveryChange() {
        AclBinding first = read(ResourceType.TOPIC, "listened", PatternType.LITERAL, "User:erin");
        brokerA.create(List.of(first));
        await().atMost(Duration.ofSeconds(30)).until(() -> brokerB.acls(byName("listened")).contains(first));
        List<String> events = new CopyOnWriteArrayList<>();
        brokerB.addListener((added, removed) -> {
            record(events, "+", added);
            record(events, "-", removed);
        });
        assertThat(events).contains("+" + first);

        AclBinding second = read(ResourceType.TOPIC, "listened", PatternType.LITERAL, "User:frank");
        brokerA.create(List.of(second));
        await().atMost(Duration.ofSeconds(30)).until(() -> events.contains("+" + second));
        brokerA.delete(List.of(byName("listened")));
        await().atMost(Duration.ofSeconds(30)).until(() -> events.contains("-" + first) && events.contains("-" + second));
        List<String> listened = events.stream().filter(e -> e.contains("listened")).toList();
        assertThat(listened).hasSize(4);
        assertThat(listened.subList(0, 2)).containsExactly("+" + first, "+" + second);
        // One change removed both.
        assertThat(listened.subList(2, 4)).containsExactlyInAnyOrder("-" + first, "-" + second);
    }

    @Test
    void concurrentCreatesOnOneResourceFromTwoStoresKeepEveryAcl() {
        List<AclBinding> bindings = IntStream.range(0, 16)
            .mapToObj(i -> read(ResourceType.TOPIC, "contended", PatternType.LITERAL, "User:u" + i)).toList();
        List<CompletableFuture<List<CreateResult>>> creates = new ArrayList<>();
        for (int i = 0; i < bindings.size(); i++) {
            AclStore store = i % 2 == 0 ? brokerA : brokerB;
            AclBinding binding = bindings.get(i);
            creates.add(CompletableFuture.supplyAsync(() -> store.create(List.of(binding))));
        }
        creates.forEach(f -> assertThat(f.join()).extracting(CreateResult::error).containsOnly(ApiError.NONE));

        assertThat(zkA.getString("/kafka-acl/Topic/contended").orElseThrow()).contains(
            bindings.stream().map(b -> "\"" + b.entry().principal() + "\"").toList());
        await().atMost(Duration.ofSeconds(30)).until(() -> brokerA.acls(byName("contended")).size() == 16
            && brokerB.acls(byName("contended")).size() == 16);
    }

    @Test
    void invalidBindingsAreRefusedOneByOneAsKafkaRefusesThem() {
        AclBinding valid = read(ResourceType.TOPIC, "validated", PatternType.LITERAL, "User:alice");
        AclBinding wildcard = read(ResourceType.TOPIC, "*", PatternType.LITERAL, "User:*");
        List<AclBinding> invalid = List.of(
            read(ResourceType.TOPIC, "validated", PatternType.UNKNOWN, "User:alice"),
            read(ResourceType.UNKNOWN, "validated", PatternType.LITERAL, "User:alice"),
            binding(ResourceType.TOPIC, "validated", PatternType.LITERAL, "User:alice", "*", AclOperation.UNKNOWN,
                AclPermissionType.ALLOW),
            binding(ResourceType.TOPIC, "validated", PatternType.LITERAL, "User:alice", "*", AclOperation.READ,
                AclPermissionType.UNKNOWN),
            read(ResourceType.TOPIC, "validated", PatternType.LITERAL, "alice"),
            read(ResourceType.TOPIC, "validated", PatternType.LITERAL, "User:"),
            read(ResourceType.CLUSTER, "my-cluster", PatternType.LITERAL, "User:alice"),
            read(ResourceType.TOPIC, "", PatternType.LITERAL, "User:alice"),
            read(ResourceType.TOPIC, "a/b", PatternType.LITERAL, "User:alice"),
            read(ResourceType.TOPIC, "..", PatternType.LITERAL, "User:alice"));
        List<AclBinding> request = new ArrayList<>(invalid);
        request.add(valid);
        request.add(wildcard);

        List<CreateResult> results = brokerA.create(request);

        assertThat(results.subList(0, invalid.size())).allSatisfy(r ->
            assertThat(r.error().error()).as(r.binding().toString()).isEqualTo(Errors.INVALID_REQUEST));
        assertThat(results.subList(invalid.size(), request.size())).extracting(CreateResult::error)
            .containsOnly(ApiError.NONE);
        assertThat(brokerA.acls(byName("validated"))).containsExactly(valid);
        assertThat(zkA.getString("/kafka-acl/Topic/*")).isPresent();
        brokerA.delete(List.of(byName("*")));
    }

    @Test
    void filtersDeleteAsKafkaDoesWithMatchAndAny() {
        AclBinding literal = read(ResourceType.TOPIC, "fleet-trucks", PatternType.LITERAL, "User:gina");
        AclBinding prefixed = read(ResourceType.TOPIC, "fleet-", PatternType.PREFIXED, "User:gina");
        AclBinding other = read(ResourceType.TOPIC, "fleet-vans", PatternType.LITERAL, "User:gina");
        AclBinding otherPrincipal = read(ResourceType.TOPIC, "fleet-trucks", PatternType.LITERAL, "User:hank");
        brokerA.create(List.of(literal, prefixed, other, otherPrincipal));

        AclBindingFilter matchTrucksForGina = new AclBindingFilter(
            new ResourcePatternFilter(ResourceType.TOPIC, "fleet-trucks", PatternType.MATCH),
            new AccessControlEntryFilter("User:gina", null, AclOperation.ANY, AclPermissionType.ANY));
        AclBindingFilter unknown = new AclBindingFilter(
            new ResourcePatternFilter(ResourceType.UNKNOWN, "fleet-trucks", PatternType.LITERAL), AccessControlEntryFilter.ANY);
        AclBindingFilter nothing = new AclBindingFilter(
            new ResourcePatternFilter(ResourceType.GROUP, "fleet-trucks", PatternType.LITERAL), AccessControlEntryFilter.ANY);

        List<DeleteResult> results = brokerA.delete(List.of(matchTrucksForGina, unknown, nothing));

        assertThat(results.get(0).deleted()).containsExactlyInAnyOrder(literal, prefixed);
        assertThat(results.get(0).error()).isEqualTo(ApiError.NONE);
        assertThat(results.get(1).error().error()).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(results.get(2).deleted()).isEmpty();
        assertThat(results.get(2).error()).isEqualTo(ApiError.NONE);
        assertThat(brokerA.acls(new AclBindingFilter(new ResourcePatternFilter(ResourceType.ANY, null, PatternType.ANY),
            AccessControlEntryFilter.ANY)).stream().filter(b -> b.pattern().name().startsWith("fleet-")))
            .containsExactlyInAnyOrder(other, otherPrincipal);
        assertThat(zkA.getString("/kafka-acl-extended/prefixed/Topic/fleet-")).isEmpty();
    }

    @Test
    void aFilterNamingOneResourceDeletesFromZooKeeperWhatTheViewHasNotSeen() throws Exception {
        // A store never started has nothing in view, like a broker whose watch has not delivered a
        // change yet: a filter that names exactly one resource pattern still finds its node.
        AclStore unwatched = new AclStore(zkB, Time.SYSTEM);
        brokerA.create(List.of(read(ResourceType.GROUP, "unseen", PatternType.LITERAL, "User:ivy")));
        assertThat(unwatched.acls(AclBindingFilter.ANY)).isEmpty();

        List<DeleteResult> results = unwatched.delete(List.of(new AclBindingFilter(
            new ResourcePatternFilter(ResourceType.GROUP, "unseen", PatternType.LITERAL), AccessControlEntryFilter.ANY)));

        assertThat(results.get(0).deleted()).extracting(b -> b.entry().principal()).containsExactly("User:ivy");
        assertThat(zkA.getString("/kafka-acl/Group/unseen")).isEmpty();
    }

    @Test
    void aMalformedNodeIsLeftOutOfTheViewAndNotOverwritten() throws Exception {
        zkA.curator().create().forPath("/kafka-acl/Topic/garbled", bytes("not json"));
        AclBinding read = read(ResourceType.TOPIC, "garbled", PatternType.LITERAL, "User:alice");

        assertThat(brokerA.create(List.of(read))).singleElement()
            .satisfies(r -> assertThat(r.error().error()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR));

        assertThat(zkA.getString("/kafka-acl/Topic/garbled")).hasValue("not json");
        assertThat(brokerA.acls(byName("garbled"))).isEmpty();
        assertThat(brokerB.acls(byName("garbled"))).isEmpty();
    }

    private static void record(List<String> events, String sign, Collection<AclBinding> bindings) {
        bindings.forEach(b -> events.add(sign + b));
    }

    private String singleNewChild(String path, List<String> before) {
        List<String> added = new ArrayList<>(zkA.getChildren(path));
        added.removeAll(before);
        assertThat(added).hasSize(1);
        return added.get(0);
    }

    private static AclBindingFilter byName(String name) {
        return new AclBindingFilter(new ResourcePatternFilter(ResourceType.ANY, name, PatternType.ANY),
            AccessControlEntryFilter.ANY);
    }

    private static AclBinding read(ResourceType type, String name, PatternType patternType, String principal) {
        return binding(type, name, patternType, principal, "*", AclOperation.READ, AclPermissionType.ALLOW);
    }

    private static AclBinding binding(ResourceType type, String name, PatternType patternType, String principal,
                                      String host, AclOperation operation, AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, patternType),
            new AccessControlEntry(principal, host, operation, permission));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
