package io.tributary.broker.security;

import io.tributary.broker.cluster.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.internals.SecurityUtils;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ACL znodes of Kafka's ZooKeeper mode ({@code kafka.zk.ZkData}: {@code LiteralAclStore},
 * {@code ExtendedAclStore}, {@code ResourceZNode}, {@code LiteralAclChangeStore},
 * {@code ExtendedAclChangeStore}; {@code AclEntry} for the JSON):
 * <pre>
 * /kafka-acl/Topic/orders                          {"version":1,"acls":[{"principal":"User:alice","permissionType":"Allow","operation":"Read","host":"*"}]}
 * /kafka-acl-extended/prefixed/Topic/orders-       the same, for a PREFIXED pattern
 * /kafka-acl-changes/acl_changes_0000000007        TOPIC:orders     (plain UTF-8, the enum name of the resource type)
 * /kafka-acl-extended-changes/acl_changes_0000000008  {"version":1,"resourceType":"TOPIC","name":"orders-","patternType":"PREFIXED"}
 * </pre>
 * The resource type path segment, operations and permission types are written in Kafka's
 * PascalCase ({@link SecurityUtils#resourceTypeName}, {@code TransactionalId}, {@code IdempotentWrite},
 * {@code Allow}) and read back case-insensitively, in that form or as the enum name
 * ({@code IDEMPOTENT_WRITE}). The change notifications use the enum names, as Kafka wrote them
 * ({@code ResourceType.toString} and {@code .name}); Kafka read both back case-insensitively.
 * Resource names are path segments as they are: Kafka neither encoded them nor allowed a '/'.
 * Change notifications are deleted once older than 15 minutes by
 * {@link io.tributary.broker.cluster.ChangeNotificationPurger} (started by {@link AclStore}), as
 * Kafka's brokers deleted them.
 *
 * <p>Stateless; thread-safe.
 */
final class AclZNodes {

    /** The path segment under {@link ZkPaths#KAFKA_ACL_EXTENDED} of the PREFIXED pattern type. */
    static final String PREFIXED_SEGMENT = PatternType.PREFIXED.name().toLowerCase(Locale.ROOT);
    static final String PREFIXED_ROOT = ZkPaths.KAFKA_ACL_EXTENDED + "/" + PREFIXED_SEGMENT;
    /** Every resource type an ACL can name. */
    static final List<ResourceType> RESOURCE_TYPES = List.of(ResourceType.TOPIC, ResourceType.GROUP,
        ResourceType.CLUSTER, ResourceType.TRANSACTIONAL_ID, ResourceType.DELEGATION_TOKEN, ResourceType.USER);
    private static final int VERSION = 1;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private AclZNodes() {
    }

    /** The persistent paths Kafka's {@code KafkaZkClient.createAclPaths} created: roots, one node per type, change roots. */
    static List<String> persistentPaths() {
        List<String> paths = new ArrayList<>();
        for (String root : List.of(ZkPaths.KAFKA_ACL, PREFIXED_ROOT)) {
            paths.add(root);
            RESOURCE_TYPES.forEach(type -> paths.add(root + "/" + SecurityUtils.resourceTypeName(type)));
        }
        paths.add(ZkPaths.KAFKA_ACL_CHANGES);
        paths.add(ZkPaths.KAFKA_ACL_EXTENDED_CHANGES);
        return paths;
    }

    /**
     * The node of a resource pattern's ACLs.
     *
     * @throws IllegalArgumentException for a pattern type other than LITERAL and PREFIXED
     */
    static String path(ResourcePattern pattern) {
        String root = switch (pattern.patternType()) {
            case LITERAL -> ZkPaths.KAFKA_ACL;
            case PREFIXED -> PREFIXED_ROOT;
            default -> throw new IllegalArgumentException("No ACL node for pattern type " + pattern.patternType());
        };
        return root + "/" + SecurityUtils.resourceTypeName(pattern.resourceType()) + "/" + pattern.name();
    }

    /**
     * The resource pattern a node stands for; empty for a root, a resource type node, or a path
     * that names an unknown resource type or pattern type.
     */
    static Optional<ResourcePattern> resourcePattern(String path) {
        String rest;
        PatternType patternType;
        if (path.startsWith(PREFIXED_ROOT + "/")) {
            rest = path.substring(PREFIXED_ROOT.length() + 1);
            patternType = PatternType.PREFIXED;
        } else if (path.startsWith(ZkPaths.KAFKA_ACL + "/")) {
            rest = path.substring(ZkPaths.KAFKA_ACL.length() + 1);
            patternType = PatternType.LITERAL;
        } else {
            return Optional.empty();
        }
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1 || rest.indexOf('/', slash + 1) >= 0) {
            return Optional.empty();
        }
        ResourceType type = resourceType(rest.substring(0, slash));
        if (type == ResourceType.UNKNOWN || type == ResourceType.ANY) {
            return Optional.empty();
        }
        return Optional.of(new ResourcePattern(type, rest.substring(slash + 1), patternType));
    }

    /** The node's JSON, Kafka's {@code ResourceZNode.encode}; entries in the given order. */
    static byte[] encode(Collection<AccessControlEntry> acls) {
        ObjectNode node = JSON.createObjectNode();
        node.put("version", VERSION);
        ArrayNode array = node.putArray("acls");
        for (AccessControlEntry acl : acls) {
            ObjectNode entry = array.addObject();
            entry.put("principal", acl.principal());
            entry.put("permissionType", SecurityUtils.permissionTypeName(acl.permissionType()));
            entry.put("operation", SecurityUtils.operationName(acl.operation()));
            entry.put("host", acl.host());
        }
        return JSON.writeValueAsBytes(node);
    }

    /**
     * The entries of a node, in stored order; empty for an empty node (as Kafka's
     * {@code AclEntry.fromBytes}).
     *
     * @param invalid told of each entry that names an unknown operation or permission type or lacks a
     *                field; such an entry is left out
     * @throws IllegalArgumentException when the data is not JSON of version 1 with an {@code acls} array
     */
    static List<AccessControlEntry> decode(byte[] data, String path, java.util.function.Consumer<String> invalid) {
        List<AccessControlEntry> acls = new ArrayList<>();
        if (data == null || data.length == 0) {
            return acls;
        }
        JsonNode node;
        try {
            node = JSON.readTree(data);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("Malformed JSON at " + path + ": " + e.getOriginalMessage(), e);
        }
        if (node.path("version").asInt(-1) != VERSION || !node.path("acls").isArray()) {
            throw new IllegalArgumentException("Unsupported ACL node at " + path + ": "
                + new String(data, StandardCharsets.UTF_8));
        }
        for (JsonNode entry : node.path("acls")) {
            String principal = text(entry, "principal");
            String host = text(entry, "host");
            String operationName = text(entry, "operation");
            String permissionName = text(entry, "permissionType");
            AclOperation operation = operationName == null ? AclOperation.UNKNOWN : operation(operationName);
            AclPermissionType permission = permissionName == null ? AclPermissionType.UNKNOWN : permissionType(permissionName);
            if (principal == null || host == null || operation == AclOperation.UNKNOWN || operation == AclOperation.ANY
                || permission == AclPermissionType.UNKNOWN || permission == AclPermissionType.ANY) {
                invalid.accept(entry.toString());
                continue;
            }
            acls.add(new AccessControlEntry(principal, host, operation, permission));
        }
        return acls;
    }

    /** The path prefix of a change notification of the pattern (ZooKeeper appends the sequence number). */
    static String changeNotificationPrefix(ResourcePattern pattern) {
        String root = pattern.patternType() == PatternType.LITERAL ? ZkPaths.KAFKA_ACL_CHANGES : ZkPaths.KAFKA_ACL_EXTENDED_CHANGES;
        return root + "/" + ZkPaths.ACL_CHANGE_SEQUENCE_PREFIX;
    }

    /**
     * A change notification's data: {@code TOPIC:orders} for a literal pattern (Kafka's
     * {@code LiteralAclChangeStore.encode}), JSON for others ({@code ExtendedAclChangeStore.encode}).
     */
    static byte[] changeNotification(ResourcePattern pattern) {
        if (pattern.patternType() == PatternType.LITERAL) {
            return (pattern.resourceType().name() + ":" + pattern.name()).getBytes(StandardCharsets.UTF_8);
        }
        ObjectNode node = JSON.createObjectNode();
        node.put("version", VERSION);
        node.put("resourceType", pattern.resourceType().name());
        node.put("name", pattern.name());
        node.put("patternType", pattern.patternType().name());
        return JSON.writeValueAsBytes(node);
    }

    /** A resource type by Kafka's PascalCase name or the enum name, any case; UNKNOWN otherwise. */
    static ResourceType resourceType(String name) {
        ResourceType type = SecurityUtils.resourceType(name);
        return type != ResourceType.UNKNOWN ? type : ResourceType.fromString(name);
    }

    /** An operation by Kafka's PascalCase name or the enum name, any case; UNKNOWN otherwise. */
    static AclOperation operation(String name) {
        AclOperation operation = SecurityUtils.operation(name);
        return operation != AclOperation.UNKNOWN ? operation : AclOperation.fromString(name);
    }

    /** A permission type by Kafka's PascalCase name or the enum name, any case; UNKNOWN otherwise. */
    static AclPermissionType permissionType(String name) {
        AclPermissionType type = SecurityUtils.permissionType(name);
        return type != AclPermissionType.UNKNOWN ? type : AclPermissionType.fromString(name);
    }

    private static String text(JsonNode entry, String field) {
        JsonNode value = entry.get(field);
        return value != null && value.isString() ? value.asString() : null;
    }
}
