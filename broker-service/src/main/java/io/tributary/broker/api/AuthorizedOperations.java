package io.tributary.broker.api;

import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.utils.Utils;

/**
 * Authorized-operations bit fields (KIP-430) reported while no authorizer is configured:
 * every operation that applies to the resource type is allowed.
 */
final class AuthorizedOperations {

    /** READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS. */
    static final int TOPIC_ALL = bits(Set.of(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE,
        AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS,
        AclOperation.ALTER_CONFIGS));

    /** Cluster operations. */
    static final int CLUSTER_ALL = bits(Set.of(AclOperation.CREATE, AclOperation.CLUSTER_ACTION,
        AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER,
        AclOperation.DESCRIBE));

    /** Group operations: READ, DESCRIBE, DELETE. */
    static final int GROUP_ALL = bits(Set.of(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE));

    private AuthorizedOperations() {
    }

    private static int bits(Set<AclOperation> operations) {
        return Utils.to32BitField(operations.stream().map(AclOperation::code).collect(Collectors.toSet()));
    }
}
