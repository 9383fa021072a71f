package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.Utils;

/**
 * Authorized-operations bit fields (KIP-430): bit {@code n} set when the principal may do the
 * operation whose {@link AclOperation#code()} is {@code n}. {@link #of} asks the authorizer about
 * every operation that applies to the resource type (Kafka's {@code AuthHelper.authorizedOperations});
 * without an authorizer that is every such operation. The constants are the bit fields reported
 * while no authorizer is configured.
 */
final class AuthorizedOperations {

    /** READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS. */
    static final int TOPIC_ALL = bits(supported(ResourceType.TOPIC));

    /** Cluster operations. */
    static final int CLUSTER_ALL = bits(supported(ResourceType.CLUSTER));

    /**
     * Group operations: READ, DESCRIBE, DELETE (Kafka 4 adds DESCRIBE_CONFIGS and ALTER_CONFIGS,
     * which {@link #of} reports; this constant keeps what DescribeGroups has always answered).
     */
    static final int GROUP_ALL = bits(Set.of(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE));

    private AuthorizedOperations() {
    }

    /**
     * The operations that apply to a resource type, as Kafka 4's {@code AclEntry.supportedOperations}.
     *
     * @throws IllegalArgumentException for a type that names no concrete resource (ANY, UNKNOWN)
     */
    static Set<AclOperation> supported(ResourceType type) {
        return switch (type) {
            case TOPIC -> EnumSet.of(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE, AclOperation.DESCRIBE,
                AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS);
            case GROUP -> EnumSet.of(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE,
                AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS);
            case CLUSTER -> EnumSet.of(AclOperation.CREATE, AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS,
                AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER, AclOperation.DESCRIBE);
            case TRANSACTIONAL_ID -> EnumSet.of(AclOperation.DESCRIBE, AclOperation.WRITE, AclOperation.TWO_PHASE_COMMIT);
            case DELEGATION_TOKEN -> EnumSet.of(AclOperation.DESCRIBE);
            case USER -> EnumSet.of(AclOperation.CREATE_TOKENS, AclOperation.DESCRIBE_TOKENS);
            default -> throw new IllegalArgumentException("Not a concrete resource type: " + type);
        };
    }

    /**
     * The bit field of the operations the request's principal may do on the named resource. Whether
     * it was asked for (else the schema's default, {@link Integer#MIN_VALUE}) is the caller's business.
     */
    static int of(BrokerAuthorizer authorizer, RequestContext context, ResourceType type, String name) {
        return bits(authorizer.authorizedOperations(context, type, name, supported(type)));
    }

    /**
     * The cluster's bit field as DescribeCluster and Metadata v8-10 report it: 0 unless the principal
     * may DESCRIBE the cluster (Kafka's {@code AuthHelper.computeDescribeClusterResponse}).
     */
    static int cluster(BrokerAuthorizer authorizer, RequestContext context) {
        return authorizer.authorizeCluster(context, AclOperation.DESCRIBE)
            ? of(authorizer, context, ResourceType.CLUSTER, BrokerAuthorizer.CLUSTER_NAME) : 0;
    }

    private static int bits(Set<AclOperation> operations) {
        return Utils.to32BitField(operations.stream().map(AclOperation::code).collect(Collectors.toSet()));
    }
}
