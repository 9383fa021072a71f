package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/** The bootstrap ACL format: kafka-acls' terms, defaults, comments, and errors naming the line. */
class BootstrapAclsTest {

    @Test
    void parsesLinesWithDefaultsCommentsAndKafkaAclsSpellings() {
        List<AclBinding> acls = BootstrapAcls.parse("file", """
            # producers
            principal=User:alice, operation=Write, resource-type=Topic, resource-name=orders

            principal=User:bob,host=10.0.0.1,operation=Read,permission=Deny,resource-type=topic,resource-name=orders-,pattern-type=Prefixed
            principal=User:svc, operation=IdempotentWrite, resource-type=Cluster; principal=User:svc,operation=describe_configs,resource-type=transactional-id,resource-name=*
            """);
        assertThat(acls).containsExactly(
            binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", "*", AclOperation.WRITE, AclPermissionType.ALLOW),
            binding(ResourceType.TOPIC, "orders-", PatternType.PREFIXED, "User:bob", "10.0.0.1", AclOperation.READ, AclPermissionType.DENY),
            binding(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, "User:svc", "*", AclOperation.IDEMPOTENT_WRITE,
                AclPermissionType.ALLOW),
            binding(ResourceType.TRANSACTIONAL_ID, "*", PatternType.LITERAL, "User:svc", "*", AclOperation.DESCRIBE_CONFIGS,
                AclPermissionType.ALLOW));
        assertThat(BootstrapAcls.parse("x", null)).isEmpty();
    }

    @Test
    void readsTheLinesTheHelmChartRenders() {
        // helm/tributary: tributary.broker.bootstrapAcls, every key given.
        assertThat(BootstrapAcls.parse("broker.bootstrap-acls", """
            principal=User:orders-app, host=*, operation=IdempotentWrite, permission=Allow, resource-type=Cluster, resource-name=kafka-cluster, pattern-type=Literal
            principal=User:orders-app, host=*, operation=Read, permission=Allow, resource-type=Topic, resource-name=orders-, pattern-type=Prefixed"""))
            .containsExactly(
                binding(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, "User:orders-app", "*",
                    AclOperation.IDEMPOTENT_WRITE, AclPermissionType.ALLOW),
                binding(ResourceType.TOPIC, "orders-", PatternType.PREFIXED, "User:orders-app", "*", AclOperation.READ,
                    AclPermissionType.ALLOW));
    }

    @Test
    void refusesBadLinesNamingTheSourceAndLine() {
        assertThatThrownBy(() -> BootstrapAcls.parse("broker.bootstrap-acls",
            "principal=User:a,operation=Read,resource-type=Topic,resource-name=t\nprincipal=User:a,operation=Read,resource-type=Topic"))
            .hasMessage("broker.bootstrap-acls: ACL 2 has no resource-name=");
        assertThatThrownBy(() -> BootstrapAcls.parse("s", "principal=User:a,operation=Read,resource-type=Shelf,resource-name=t"))
            .hasMessageContaining("s: ACL 1: resource-type 'Shelf' is not one of");
        assertThatThrownBy(() -> BootstrapAcls.parse("s", "principal=User:a,operation=Read,resource-type=Topic,resource-name=t,colour=red"))
            .hasMessageContaining("unknown key 'colour'");
        assertThatThrownBy(() -> BootstrapAcls.parse("s", "principal=User:a,operation=Read,resource-type=Topic,resource-name=t,pattern-type=Match"))
            .hasMessageContaining("pattern-type 'Match'");
        assertThatThrownBy(() -> BootstrapAcls.parse("s", "principal=alice,operation=Read,resource-type=Topic,resource-name=t"))
            .hasMessageStartingWith("s: ACL 1: ");
    }

    private static AclBinding binding(ResourceType type, String name, PatternType patternType, String principal, String host,
                                      AclOperation operation, AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, patternType),
            new AccessControlEntry(principal, host, operation, permission));
    }
}
