package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestCluster;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateAclsResult;
import org.apache.kafka.clients.admin.DeleteAclsResult;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.CreateAclsRequestData.AclCreation;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.CreateAclsRequest;
import org.apache.kafka.common.requests.CreateAclsResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's Admin client and its kafka-acls tool manage ACLs (CreateAcls, DescribeAcls, DeleteAcls)
 * on a two-broker cluster; both brokers' stores agree. Each test uses its own resource names.
 */
class AclsTest {

    @TempDir
    static Path dir;
    static TestCluster cluster;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestCluster.start(dir, 2, Map.of());
        admin = cluster.admin();
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    @Test
    void createDescribeAndDeleteAclsThroughTheAdminClient() throws Exception {
        AclBinding aliceReadsOrders = allow(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", AclOperation.READ);
        AclBinding bobWritesPayments = allow(ResourceType.TOPIC, "payments-", PatternType.PREFIXED, "User:bob",
            AclOperation.WRITE);
        AclBinding aliceReadsGroup = allow(ResourceType.GROUP, "checkout", PatternType.LITERAL, "User:alice",
            AclOperation.READ);
        AclBinding bobIdempotent = allow(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, "User:bob",
            AclOperation.IDEMPOTENT_WRITE);
        List<AclBinding> all = List.of(aliceReadsOrders, bobWritesPayments, aliceReadsGroup, bobIdempotent);

        admin.createAcls(all).all().get();

        awaitBothBrokersHold(Set.copyOf(all), "User:alice", "User:bob");
        assertThat(admin.describeAcls(AclBindingFilter.ANY).values().get()).containsAll(all);
        assertThat(admin.describeAcls(new AclBindingFilter(ResourcePatternFilter.ANY,
            new AccessControlEntryFilter("User:bob", null, AclOperation.ANY, AclPermissionType.ANY))).values().get())
            .containsExactlyInAnyOrder(bobWritesPayments, bobIdempotent);
        // MATCH: every pattern that applies to the topic payments-eu, here the prefix.
        assertThat(admin.describeAcls(new AclBindingFilter(
            new ResourcePatternFilter(ResourceType.TOPIC, "payments-eu", PatternType.MATCH), AccessControlEntryFilter.ANY))
            .values().get()).containsExactly(bobWritesPayments);
        assertThat(admin.describeAcls(new AclBindingFilter(
            new ResourcePatternFilter(ResourceType.TOPIC, "payments-eu", PatternType.LITERAL), AccessControlEntryFilter.ANY))
            .values().get()).isEmpty();

        DeleteAclsResult deleted = admin.deleteAcls(List.of(new AclBindingFilter(ResourcePatternFilter.ANY,
            new AccessControlEntryFilter("User:alice", null, AclOperation.ANY, AclPermissionType.ANY))));
        assertThat(deleted.all().get()).containsExactlyInAnyOrder(aliceReadsOrders, aliceReadsGroup);

        awaitBothBrokersHold(Set.of(bobWritesPayments, bobIdempotent), "User:alice", "User:bob");
        assertThat(admin.describeAcls(AclBindingFilter.ANY).values().get())
            .contains(bobWritesPayments, bobIdempotent).doesNotContain(aliceReadsOrders, aliceReadsGroup);
        assertThat(cluster.anyRunning().zkClient().getString("/kafka-acl-extended/prefixed/Topic/payments-")).isPresent();
        assertThat(cluster.anyRunning().zkClient().getString("/kafka-acl/Topic/orders")).isEmpty();

        admin.deleteAcls(List.of(new AclBindingFilter(ResourcePatternFilter.ANY,
            new AccessControlEntryFilter("User:bob", null, AclOperation.ANY, AclPermissionType.ANY)))).all().get();
        awaitBothBrokersHold(Set.of(), "User:alice", "User:bob");
    }

    @Test
    void invalidBindingsGetKafkasErrorOneByOne() throws Exception {
        AclBinding valid = allow(ResourceType.TOPIC, "inventory", PatternType.LITERAL, "User:carol", AclOperation.DESCRIBE);
        AclBinding noPrincipalType = allow(ResourceType.TOPIC, "inventory", PatternType.LITERAL, "carol", AclOperation.READ);
        AclBinding otherClusterName = allow(ResourceType.CLUSTER, "my-cluster", PatternType.LITERAL, "User:carol",
            AclOperation.ALTER);
        AclBinding slashInName = allow(ResourceType.GROUP, "a/b", PatternType.LITERAL, "User:carol", AclOperation.READ);

        CreateAclsResult result = admin.createAcls(List.of(valid, noPrincipalType, otherClusterName, slashInName));

        result.values().get(valid).get();
        for (AclBinding invalid : List.of(noPrincipalType, otherClusterName, slashInName)) {
            assertThatThrownBy(() -> result.values().get(invalid).get()).as(invalid.toString())
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(InvalidRequestException.class);
        }
        assertThat(admin.describeAcls(new AclBindingFilter(
            new ResourcePatternFilter(ResourceType.ANY, "inventory", PatternType.ANY), AccessControlEntryFilter.ANY))
            .values().get()).containsExactly(valid);
        admin.deleteAcls(List.of(valid.toFilter())).all().get();
    }

    @Test
    void aCreationNamingAnyWhereAConcreteValueBelongsFailsAloneAndVersionsAreKafkaFours() throws Exception {
        try (WireClient client = WireClient.connect(cluster.anyRunning().bootstrapServers())) {
            ApiVersionsResponse versions = client.send(new ApiVersionsRequest.Builder().build((short) 3));
            for (ApiKeys api : List.of(ApiKeys.CREATE_ACLS, ApiKeys.DESCRIBE_ACLS, ApiKeys.DELETE_ACLS)) {
                ApiVersionsResponseData.ApiVersion range = versions.data().apiKeys().find(api.id);
                assertThat(range.minVersion() + "-" + range.maxVersion()).as(api.name()).isEqualTo("1-3");
            }
            AclCreation anyResourceType = new AclCreation().setResourceType(ResourceType.ANY.code())
                .setResourceName("ledger").setResourcePatternType(PatternType.LITERAL.code()).setPrincipal("User:erin")
                .setHost("*").setOperation(AclOperation.READ.code()).setPermissionType(AclPermissionType.ALLOW.code());
            AclCreation valid = anyResourceType.duplicate().setResourceType(ResourceType.TOPIC.code());
            CreateAclsResponse response = client.send(new CreateAclsRequest.Builder(new CreateAclsRequestData()
                .setCreations(List.of(anyResourceType, valid))).build((short) 3));
            assertThat(response.results()).extracting(r -> Errors.forCode(r.errorCode()))
                .containsExactly(Errors.INVALID_REQUEST, Errors.NONE);
        }
        admin.deleteAcls(List.of(new AclBindingFilter(
            new ResourcePatternFilter(ResourceType.TOPIC, "ledger", PatternType.LITERAL), AccessControlEntryFilter.ANY)))
            .all().get();
    }

    /**
     * Kafka's kafka-acls ({@code org.apache.kafka.tools.AclCommand}), run on the classpath the
     * {@code kafka-tools-runtime} module resolves, in its own JVM.
     */
    @Test
    void kafkaAclsToolAddsListsAndRemovesAnAcl() throws Exception {
        String bootstrap = cluster.bootstrapServers();
        KafkaTool.Result add = KafkaTool.runWithKafkaToolsClasspath("org.apache.kafka.tools.AclCommand",
            "--bootstrap-server", bootstrap, "--add", "--allow-principal", "User:dora", "--operation", "Read",
            "--topic", "shipments");
        assertThat(add.exitCode()).as(add.output()).isZero();
        AclBinding expected = allow(ResourceType.TOPIC, "shipments", PatternType.LITERAL, "User:dora", AclOperation.READ);
        assertThat(cluster.anyRunning().zkClient().getString("/kafka-acl/Topic/shipments").orElseThrow())
            .contains("\"principal\":\"User:dora\"").contains("\"operation\":\"Read\"");

        awaitBothBrokersHold(Set.of(expected), "User:dora");
        KafkaTool.Result list = KafkaTool.runWithKafkaToolsClasspath("org.apache.kafka.tools.AclCommand",
            "--bootstrap-server", bootstrap, "--list", "--topic", "shipments");
        assertThat(list.exitCode()).as(list.output()).isZero();
        assertThat(list.output()).contains("Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=shipments, "
            + "patternType=LITERAL)`").contains("(principal=User:dora, host=*, operation=READ, permissionType=ALLOW)");

        KafkaTool.Result remove = KafkaTool.runWithKafkaToolsClasspath("org.apache.kafka.tools.AclCommand",
            "--bootstrap-server", bootstrap, "--remove", "--allow-principal", "User:dora", "--operation", "Read",
            "--topic", "shipments", "--force");
        assertThat(remove.exitCode()).as(remove.output()).isZero();
        assertThat(cluster.anyRunning().zkClient().getString("/kafka-acl/Topic/shipments")).isEmpty();
        awaitBothBrokersHold(Set.of(), "User:dora");
    }

    /** Waits until every broker's store holds exactly {@code expected} among the bindings of these principals. */
    private static void awaitBothBrokersHold(Set<AclBinding> expected, String... principals) {
        Set<String> of = Set.of(principals);
        for (int id : cluster.brokerIds()) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                cluster.broker(id).aclStore().acls(AclBindingFilter.ANY).stream()
                    .filter(b -> of.contains(b.entry().principal())).collect(Collectors.toSet()))
                .as("broker %d", id).isEqualTo(expected));
        }
    }

    /**
     * Filters return exactly Kafka's sets ({@code ResourcePatternFilter.matches}): MATCH finds every
     * pattern that applies to a name (the literal name, the literal wildcard, the prefixes of it); ANY
     * finds the patterns named exactly so, literal or prefixed; LITERAL and PREFIXED only their own.
     * CreateAcls refuses the filter-only pattern types MATCH and ANY, one by one.
     */
    @Test
    void filtersReturnKafkasSetsAndCreationRefusesMatchAndAny() throws Exception {
        AclBinding wildcard = allow(ResourceType.TOPIC, "*", PatternType.LITERAL, "User:frank", AclOperation.READ);
        AclBinding exact = allow(ResourceType.TOPIC, "ledger-eu", PatternType.LITERAL, "User:frank", AclOperation.READ);
        AclBinding prefix = allow(ResourceType.TOPIC, "ledger-", PatternType.PREFIXED, "User:frank", AclOperation.READ);
        AclBinding samePrefix = allow(ResourceType.TOPIC, "ledger-eu", PatternType.PREFIXED, "User:frank",
            AclOperation.WRITE);
        AclBinding other = allow(ResourceType.TOPIC, "ledgers", PatternType.LITERAL, "User:frank", AclOperation.READ);
        AclBinding group = allow(ResourceType.GROUP, "ledger-eu", PatternType.LITERAL, "User:frank", AclOperation.READ);
        List<AclBinding> all = List.of(wildcard, exact, prefix, samePrefix, other, group);
        admin.createAcls(all).all().get();
        awaitBothBrokersHold(Set.copyOf(all), "User:frank");
        AccessControlEntryFilter frank = new AccessControlEntryFilter("User:frank", null, AclOperation.ANY,
            AclPermissionType.ANY);

        assertThat(describe(new ResourcePatternFilter(ResourceType.TOPIC, "ledger-eu", PatternType.MATCH), frank))
            .containsExactlyInAnyOrder(wildcard, exact, prefix, samePrefix);
        assertThat(describe(new ResourcePatternFilter(ResourceType.TOPIC, "ledger-eu", PatternType.ANY), frank))
            .containsExactlyInAnyOrder(exact, samePrefix);
        assertThat(describe(new ResourcePatternFilter(ResourceType.ANY, "ledger-eu", PatternType.ANY), frank))
            .containsExactlyInAnyOrder(exact, samePrefix, group);
        assertThat(describe(new ResourcePatternFilter(ResourceType.TOPIC, "ledger-eu", PatternType.LITERAL), frank))
            .containsExactly(exact);
        assertThat(describe(new ResourcePatternFilter(ResourceType.TOPIC, "ledger-", PatternType.PREFIXED), frank))
            .containsExactly(prefix);
        assertThat(describe(new ResourcePatternFilter(ResourceType.TOPIC, null, PatternType.LITERAL), frank))
            .containsExactlyInAnyOrder(wildcard, exact, other);

        try (WireClient client = WireClient.connect(cluster.anyRunning().bootstrapServers())) {
            AclCreation match = new AclCreation().setResourceType(ResourceType.TOPIC.code()).setResourceName("x")
                .setResourcePatternType(PatternType.MATCH.code()).setPrincipal("User:frank").setHost("*")
                .setOperation(AclOperation.READ.code()).setPermissionType(AclPermissionType.ALLOW.code());
            AclCreation any = match.duplicate().setResourcePatternType(PatternType.ANY.code());
            AclCreation literal = match.duplicate().setResourcePatternType(PatternType.LITERAL.code());
            CreateAclsResponse response = client.send(new CreateAclsRequest.Builder(new CreateAclsRequestData()
                .setCreations(List.of(match, any, literal))).build((short) 3));
            assertThat(response.results()).extracting(r -> Errors.forCode(r.errorCode()))
                .containsExactly(Errors.INVALID_REQUEST, Errors.INVALID_REQUEST, Errors.NONE);
        }
        // Every broker holds the created literal before the deletion (which a broker makes from its own view).
        Set<AclBinding> withLiteral = new java.util.HashSet<>(all);
        withLiteral.add(allow(ResourceType.TOPIC, "x", PatternType.LITERAL, "User:frank", AclOperation.READ));
        awaitBothBrokersHold(withLiteral, "User:frank");
        admin.deleteAcls(List.of(new AclBindingFilter(ResourcePatternFilter.ANY, frank))).all().get();
        awaitBothBrokersHold(Set.of(), "User:frank");
    }

    private static java.util.Collection<AclBinding> describe(ResourcePatternFilter pattern, AccessControlEntryFilter entry)
            throws Exception {
        return admin.describeAcls(new AclBindingFilter(pattern, entry)).values().get();
    }

    private static AclBinding allow(ResourceType type, String name, PatternType patternType, String principal,
                                    AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, patternType),
            new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }
}
