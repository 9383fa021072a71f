package io.tributary.restproxy.v3;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.V3Resources.Metadata;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.JsonNode;

/**
 * v3 ACLs, as the Confluent REST Proxy API v3 has them: {@code GET /acls} with filters,
 * {@code POST /acls} (one), {@code POST /acls:batch} (several), {@code DELETE /acls} with a filter,
 * answering what it deleted. Names are Kafka's enum names (TOPIC, LITERAL, PREFIXED, READ, ALLOW);
 * principals are {@code User:alice}. Runs as the caller's Kafka login: the brokers want DESCRIBE on the
 * cluster to list and ALTER to change.
 */
@RestController
@RequestMapping(path = "/v3/clusters/{clusterId}", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "ACLs (v3)", description = "Kafka ACLs: list with filters, create, delete by filter (Confluent v3 shapes)")
public class V3AclsController {

    /** v3 {@code KafkaAcl}. */
    public record Acl(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("resource_type") String resourceType, @JsonProperty("resource_name") String resourceName,
            @JsonProperty("pattern_type") String patternType, String principal, String host, String operation,
            String permission) {
    }

    private final ClusterAdmin cluster;
    private final AclsAdmin acls;

    public V3AclsController(ClusterAdmin cluster, AclsAdmin acls) {
        this.cluster = cluster;
        this.acls = acls;
    }

    @GetMapping("/acls")
    @Operation(summary = "List ACLs",
        description = "Every ACL matching the filter (each parameter optional; absent or ANY matches every value). "
            + "pattern_type MATCH with a resource_name finds what applies to that name: the literal name, the "
            + "wildcard * and the prefixes of the name (Kafka's AclBindingFilter). Needs DESCRIBE on the cluster "
            + "(else 403, 40301).")
    public ResourceList<Acl> list(@PathVariable String clusterId,
            @RequestParam(name = "resource_type", required = false) String resourceType,
            @RequestParam(name = "resource_name", required = false) String resourceName,
            @RequestParam(name = "pattern_type", required = false) String patternType,
            @RequestParam(required = false) String principal, @RequestParam(required = false) String host,
            @RequestParam(required = false) String operation, @RequestParam(required = false) String permission) {
        cluster.checkCluster(clusterId);
        AclBindingFilter filter = filter(resourceType, resourceName, patternType, principal, host, operation,
            permission);
        return list(clusterId, acls.describe(filter));
    }

    @PostMapping(path = "/acls", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create an ACL",
        description = "Body {\"resource_type\", \"resource_name\", \"pattern_type\" (LITERAL or PREFIXED), "
            + "\"principal\" (User:alice), \"host\" (default *), \"operation\", \"permission\" (ALLOW or DENY)}. "
            + "201. Needs ALTER on the cluster.")
    public ResponseEntity<Void> create(@PathVariable String clusterId, @RequestBody JsonNode body) {
        cluster.checkCluster(clusterId);
        acls.create(List.of(binding(body)));
        return ResponseEntity.status(HttpStatus.CREATED).build();
    }

    @PostMapping(path = "/acls:batch", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create several ACLs",
        description = "Body {\"data\": [acl, ...]}, each as for POST /acls; all are checked before any is sent. 204.")
    public ResponseEntity<Void> createBatch(@PathVariable String clusterId, @RequestBody JsonNode body) {
        cluster.checkCluster(clusterId);
        JsonNode data = body == null ? null : body.get("data");
        if (data == null || !data.isArray() || data.isEmpty()) {
            throw RestError.BAD_REQUEST.exception("data must be a non-empty array of ACLs");
        }
        List<AclBinding> bindings = new ArrayList<>();
        data.forEach(entry -> bindings.add(binding(entry)));
        acls.create(bindings);
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping("/acls")
    @Operation(summary = "Delete the ACLs matching a filter",
        description = "Parameters as for GET /acls; resource_type is required (ANY allowed) so that an empty "
            + "request never deletes every ACL. Answers the ACLs deleted. Needs ALTER on the cluster.")
    public ResourceList<Acl> delete(@PathVariable String clusterId,
            @RequestParam(name = "resource_type") String resourceType,
            @RequestParam(name = "resource_name", required = false) String resourceName,
            @RequestParam(name = "pattern_type", required = false) String patternType,
            @RequestParam(required = false) String principal, @RequestParam(required = false) String host,
            @RequestParam(required = false) String operation, @RequestParam(required = false) String permission) {
        cluster.checkCluster(clusterId);
        AclBindingFilter filter = filter(resourceType, resourceName, patternType, principal, host, operation,
            permission);
        return list(clusterId, acls.delete(filter));
    }

    /** A filter from the query parameters; 400 for an unknown enum name. */
    static AclBindingFilter filter(String resourceType, String resourceName, String patternType, String principal,
            String host, String operation, String permission) {
        return new AclBindingFilter(
            new ResourcePatternFilter(parse("resource_type", resourceType, ResourceType::fromString, ResourceType.ANY),
                blankToNull(resourceName),
                parse("pattern_type", patternType, PatternType::fromString, PatternType.ANY)),
            new AccessControlEntryFilter(blankToNull(principal), blankToNull(host),
                parse("operation", operation, AclOperation::fromString, AclOperation.ANY),
                parse("permission", permission, AclPermissionType::fromString, AclPermissionType.ANY)));
    }

    /** An ACL from a request body; 400 when a field is missing, unknown or not specific (ANY, MATCH). */
    static AclBinding binding(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw RestError.BAD_REQUEST.exception("an ACL must be a JSON object");
        }
        ResourceType type = parse("resource_type", text(body, "resource_type"), ResourceType::fromString, null);
        PatternType pattern = parse("pattern_type", text(body, "pattern_type"), PatternType::fromString,
            PatternType.LITERAL);
        AclOperation operation = parse("operation", text(body, "operation"), AclOperation::fromString, null);
        AclPermissionType permission = parse("permission", text(body, "permission"), AclPermissionType::fromString,
            null);
        String name = type == ResourceType.CLUSTER && text(body, "resource_name") == null ? "kafka-cluster"
            : text(body, "resource_name");
        String principal = text(body, "principal");
        String host = text(body, "host") == null ? "*" : text(body, "host");
        if (type == null || type == ResourceType.ANY || name == null || operation == null
                || operation == AclOperation.ANY || permission == null || permission == AclPermissionType.ANY
                || !pattern.isSpecific()) {
            throw RestError.BAD_REQUEST.exception("an ACL needs resource_type, resource_name, operation and "
                + "permission, none of them ANY, and pattern_type LITERAL or PREFIXED");
        }
        if (principal == null || principal.indexOf(':') <= 0 || principal.endsWith(":")) {
            throw RestError.BAD_REQUEST.exception("principal must be type:name, e.g. User:alice");
        }
        return new AclBinding(new ResourcePattern(type, name, pattern),
            new AccessControlEntry(principal, host, operation, permission));
    }

    private static <E extends Enum<E>> E parse(String field, String value, Function<String, E> fromString,
            E absent) {
        if (value == null || value.isBlank()) {
            return absent;
        }
        E parsed = fromString.apply(value.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
        if (parsed.name().equals("UNKNOWN")) {
            throw RestError.BAD_REQUEST.exception(field + " " + value + " is not known");
        }
        return parsed;
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || value.isNull() || value.asString().isBlank() ? null : value.asString().strip();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static ResourceList<Acl> list(String clusterId, List<AclBinding> bindings) {
        return new ResourceList<>("KafkaAclDataList", V3Links.self(clusterId, "/acls"),
            bindings.stream().map(b -> view(clusterId, b)).toList());
    }

    private static Acl view(String clusterId, AclBinding b) {
        String self = UriComponentsBuilder.fromUriString(V3Links.cluster(clusterId) + "/acls")
            .queryParam("resource_type", b.pattern().resourceType()).queryParam("resource_name", b.pattern().name())
            .queryParam("pattern_type", b.pattern().patternType()).queryParam("principal", b.entry().principal())
            .queryParam("host", b.entry().host()).queryParam("operation", b.entry().operation())
            .queryParam("permission", b.entry().permissionType()).encode().toUriString();
        return new Acl("KafkaAcl", Metadata.of(self), clusterId, b.pattern().resourceType().name(),
            b.pattern().name(), b.pattern().patternType().name(), b.entry().principal(), b.entry().host(),
            b.entry().operation().name(), b.entry().permissionType().name());
    }
}
