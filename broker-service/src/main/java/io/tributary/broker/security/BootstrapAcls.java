package io.tributary.broker.security;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The bootstrap ACL format: one ACL per line (or per {@code ;}), each comma-separated
 * {@code key=value} pairs named after kafka-acls' terms:
 * <pre>
 * # alice writes orders; the readers group reads every topic starting with "orders-"
 * principal=User:alice, operation=Write, resource-type=Topic, resource-name=orders
 * principal=User:bob, operation=Read, resource-type=Topic, resource-name=orders-, pattern-type=Prefixed
 * principal=User:bob, operation=Read, resource-type=Group, resource-name=readers
 * principal=User:ops, operation=Describe, resource-type=Cluster
 * </pre>
 * Keys: {@code principal} (required, {@code User:<name>}), {@code host} (default {@code *}),
 * {@code operation} (required: Read, Write, Create, Delete, Alter, Describe, ClusterAction,
 * DescribeConfigs, AlterConfigs, IdempotentWrite, All; case, dashes and underscores ignored),
 * {@code permission} (Allow or Deny, default Allow), {@code resource-type} (required: Topic, Group,
 * Cluster, TransactionalId, DelegationToken, User), {@code resource-name} (required except for
 * Cluster, whose name is {@code kafka-cluster}; {@code *} for every resource of the type),
 * {@code pattern-type} (Literal or Prefixed, default Literal). Blank lines and lines starting with
 * {@code #} are skipped. Each ACL is validated as CreateAcls validates it.
 *
 * <p>Stateless; errors are {@link IllegalArgumentException}s naming the source and the line.
 */
public final class BootstrapAcls {

    private static final Set<String> KEYS = Set.of("principal", "host", "operation", "permission", "resource-type",
        "resource-name", "pattern-type");

    private BootstrapAcls() {
    }

    /**
     * Parses ACLs.
     *
     * @param source where the text comes from (a setting or file name), for error messages
     * @param text   the ACLs; null or blank for none
     * @throws IllegalArgumentException naming {@code source} and the line of the first bad ACL
     */
    public static List<AclBinding> parse(String source, String text) {
        List<AclBinding> bindings = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return bindings;
        }
        String[] lines = text.split("\\r?\\n|;");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            bindings.add(parseLine(line, source + ": ACL " + (i + 1)));
        }
        return bindings;
    }

    private static AclBinding parseLine(String line, String where) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String pair : line.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int equals = pair.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException(where + ": '" + pair.strip() + "' is not key=value");
            }
            String key = pair.substring(0, equals).strip().toLowerCase(Locale.ROOT);
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(where + ": unknown key '" + key + "'; known keys are "
                    + KEYS.stream().sorted().toList());
            }
            if (pairs.put(key, pair.substring(equals + 1).strip()) != null) {
                throw new IllegalArgumentException(where + " gives " + key + " twice");
            }
        }
        String principal = required(pairs, "principal", where);
        ResourceType resourceType = enumValue(ResourceType.class, required(pairs, "resource-type", where),
            Set.of(ResourceType.UNKNOWN, ResourceType.ANY), "resource-type", where);
        String name = resourceType == ResourceType.CLUSTER
            ? pairs.getOrDefault("resource-name", AclValidation.CLUSTER_NAME) : required(pairs, "resource-name", where);
        PatternType patternType = enumValue(PatternType.class, pairs.getOrDefault("pattern-type", "Literal"),
            Set.of(PatternType.UNKNOWN, PatternType.ANY, PatternType.MATCH), "pattern-type", where);
        AclOperation operation = enumValue(AclOperation.class, required(pairs, "operation", where),
            Set.of(AclOperation.UNKNOWN, AclOperation.ANY), "operation", where);
        AclPermissionType permission = enumValue(AclPermissionType.class, pairs.getOrDefault("permission", "Allow"),
            Set.of(AclPermissionType.UNKNOWN, AclPermissionType.ANY), "permission", where);
        AclBinding binding = new AclBinding(new ResourcePattern(resourceType, name, patternType),
            new AccessControlEntry(principal, pairs.getOrDefault("host", "*"), operation, permission));
        Optional<String> invalid = AclValidation.invalidBinding(binding);
        if (invalid.isPresent()) {
            throw new IllegalArgumentException(where + ": " + invalid.get());
        }
        return binding;
    }

    private static String required(Map<String, String> pairs, String key, String where) {
        String value = pairs.get(key);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(where + " has no " + key + "=");
        }
        return value;
    }

    /** The constant whose name, without underscores, equals {@code text} without dashes and underscores, ignoring case. */
    private static <E extends Enum<E>> E enumValue(Class<E> type, String text, Set<E> excluded, String key, String where) {
        String wanted = text.replace("-", "").replace("_", "").toUpperCase(Locale.ROOT);
        List<String> known = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            if (excluded.contains(constant)) {
                continue;
            }
            known.add(constant.name());
            if (constant.name().replace("_", "").equals(wanted)) {
                return constant;
            }
        }
        throw new IllegalArgumentException(where + ": " + key + " '" + text + "' is not one of " + known);
    }
}
