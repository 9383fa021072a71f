package io.tributary.broker.security;

import java.util.Optional;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.zookeeper.common.PathUtils;

/**
 * Which ACL bindings may be created and which filters may delete, as Kafka checks them: the
 * KRaft controller's {@code AclControlManager.validateNewAcl / validateFilter}, plus what
 * ZooKeeper mode added ({@code AclApis.handleCreateAcls}: the cluster resource is named
 * {@code kafka-cluster} and no resource name is empty; {@code AclAuthorizer}: no '/' in a name,
 * since the name is a path segment). Every failure is INVALID_REQUEST.
 *
 * <p>One difference, on purpose: a principal with an empty type or name ({@code User:}) is
 * refused; Kafka refused only a principal without a colon, and stored such an ACL, which
 * matches no authenticated client.
 */
final class AclValidation {

    /** The only name of the CLUSTER resource ({@code Resource.CLUSTER_NAME}). */
    static final String CLUSTER_NAME = "kafka-cluster";

    private AclValidation() {
    }

    /** Why the binding cannot be created, or empty when it can. */
    static Optional<String> invalidBinding(AclBinding binding) {
        ResourcePattern pattern = binding.pattern();
        if (pattern.patternType() != PatternType.LITERAL && pattern.patternType() != PatternType.PREFIXED) {
            return Optional.of("Invalid patternType " + pattern.patternType() + ": only LITERAL and PREFIXED can be stored");
        }
        if (pattern.resourceType() == ResourceType.UNKNOWN || pattern.resourceType() == ResourceType.ANY) {
            return Optional.of("Invalid resourceType " + pattern.resourceType());
        }
        AclOperation operation = binding.entry().operation();
        if (operation == AclOperation.UNKNOWN || operation == AclOperation.ANY) {
            return Optional.of("Invalid operation " + operation);
        }
        AclPermissionType permission = binding.entry().permissionType();
        if (permission != AclPermissionType.ALLOW && permission != AclPermissionType.DENY) {
            return Optional.of("Invalid permissionType " + permission);
        }
        String name = pattern.name();
        if (name == null || name.isEmpty()) {
            return Optional.of("Invalid empty resource name");
        }
        if (pattern.resourceType() == ResourceType.CLUSTER && !CLUSTER_NAME.equals(name)) {
            return Optional.of("The only valid name for the CLUSTER resource is " + CLUSTER_NAME);
        }
        if (name.contains("/")) {
            return Optional.of("ACL binding contains invalid resource name: " + name);
        }
        try {
            PathUtils.validatePath(AclZNodes.path(pattern));
        } catch (IllegalArgumentException e) {
            return Optional.of("ACL binding contains invalid resource name: " + name);
        }
        String principal = binding.entry().principal();
        int colon = principal == null ? -1 : principal.indexOf(':');
        if (colon <= 0 || colon == principal.length() - 1) {
            return Optional.of("Could not parse principal from `" + principal + "` (expected principalType:principalName)");
        }
        return Optional.empty();
    }

    /** Whether the pattern can have a node: LITERAL or PREFIXED, a known type, a name that is one path segment. */
    static boolean hasNode(ResourcePattern pattern) {
        if (pattern.patternType() != PatternType.LITERAL && pattern.patternType() != PatternType.PREFIXED
            || pattern.resourceType() == ResourceType.UNKNOWN || pattern.resourceType() == ResourceType.ANY
            || pattern.name() == null || pattern.name().isEmpty() || pattern.name().contains("/")) {
            return false;
        }
        try {
            PathUtils.validatePath(AclZNodes.path(pattern));
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Why the filter cannot delete, or empty when it can. */
    static Optional<String> invalidFilter(AclBindingFilter filter) {
        if (filter.patternFilter().isUnknown()) {
            return Optional.of("Unknown patternFilter.");
        }
        if (filter.entryFilter().isUnknown()) {
            return Optional.of("Unknown entryFilter.");
        }
        return Optional.empty();
    }
}
