package io.tributary.restproxy.v3;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.ClientQuotasAdmin.EntityQuotas;
import io.tributary.restproxy.v3.V3Resources.Metadata;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Client quotas over HTTP: Tributary's own endpoints (the Confluent REST Proxy has none), over
 * DescribeClientQuotas / AlterClientQuotas. An entity is a list of {@code {"entity_type", "entity_name"}}
 * (types {@code user}, {@code client-id}, {@code ip}); {@code "entity_name": null} is the type's default
 * entity, which Kafka's tools show as {@code <default>}.
 */
@RestController
@RequestMapping(path = "/v3/clusters/{clusterId}", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Client quotas (v3, Tributary)",
    description = "Tributary's own: client quotas of users, client ids and defaults, set and remove (not in Confluent's API)")
public class V3ClientQuotasController {

    /** The entity name that stands for a type's default entity in query parameters. */
    static final String DEFAULT = "<default>";

    private static final Set<String> TYPES = Set.of(ClientQuotaEntity.USER, ClientQuotaEntity.CLIENT_ID,
        ClientQuotaEntity.IP);

    /** One part of an entity; a null name is the default entity of the type. */
    public record EntityPart(@JsonProperty("entity_type") String entityType,
            @JsonProperty("entity_name") @JsonInclude(JsonInclude.Include.ALWAYS) String entityName) {
    }

    /** {@code KafkaClientQuota}: an entity and its quota values. */
    public record ClientQuota(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            List<EntityPart> entity, Map<String, Double> values) {
    }

    private final ClusterAdmin cluster;
    private final ClientQuotasAdmin quotas;

    public V3ClientQuotasController(ClusterAdmin cluster, ClientQuotasAdmin quotas) {
        this.cluster = cluster;
        this.quotas = quotas;
    }

    @GetMapping("/client-quotas")
    @Operation(summary = "List client quotas (Tributary)",
        description = "The quotas of every entity, or of those whose user / client-id is the one given (<default> "
            + "for the default entity): producer_byte_rate, consumer_byte_rate, request_percentage, "
            + "controller_mutation_rate. Needs DESCRIBE_CONFIGS on the cluster.")
    public ResourceList<ClientQuota> list(@PathVariable String clusterId,
            @RequestParam(required = false) String user,
            @RequestParam(name = "client_id", required = false) String clientId) {
        cluster.checkCluster(clusterId);
        List<ClientQuotaFilterComponent> components = new ArrayList<>();
        component(ClientQuotaEntity.USER, user, components);
        component(ClientQuotaEntity.CLIENT_ID, clientId, components);
        return new ResourceList<>("KafkaClientQuotaList", V3Links.self(clusterId, "/client-quotas"),
            quotas.describe(components).stream().map(q -> view(clusterId, q)).toList());
    }

    @PostMapping(path = "/client-quotas:alter", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Set and remove client quotas of one entity (Tributary)",
        description = "Body {\"entity\": [{\"entity_type\": \"user\", \"entity_name\": \"alice\"}], \"set\": "
            + "{\"producer_byte_rate\": 1048576}, \"remove\": [\"consumer_byte_rate\"]}; one AlterClientQuotas call. "
            + "204. Needs ALTER_CONFIGS on the cluster.")
    public ResponseEntity<Void> alter(@PathVariable String clusterId, @RequestBody JsonNode body) {
        cluster.checkCluster(clusterId);
        JsonNode entityNode = body == null ? null : body.get("entity");
        if (entityNode == null || !entityNode.isArray() || entityNode.isEmpty()) {
            throw RestError.BAD_REQUEST.exception("entity must be a non-empty array of {entity_type, entity_name}");
        }
        Map<String, String> entity = new HashMap<>();
        for (JsonNode part : entityNode) {
            JsonNode type = part.get("entity_type");
            JsonNode name = part.get("entity_name");
            if (type == null || !TYPES.contains(type.asString()) || entity.containsKey(type.asString())
                    || (name != null && !name.isNull() && (!name.isString() || name.asString().isEmpty()))) {
                throw RestError.BAD_REQUEST.exception("each entity part needs an entity_type of " + TYPES
                    + " (once) and an entity_name, a non-empty string or null for the default");
            }
            entity.put(type.asString(), name == null || name.isNull() ? null : name.asString());
        }
        Map<String, Double> set = new LinkedHashMap<>();
        JsonNode setNode = body.get("set");
        if (setNode != null && !setNode.isNull()) {
            if (!setNode.isObject()) {
                throw RestError.BAD_REQUEST.exception("set must be an object of quota name to number");
            }
            for (var field : setNode.properties()) {
                if (!field.getValue().isNumber() || field.getValue().asDouble() < 0) {
                    throw RestError.BAD_REQUEST.exception("quota " + field.getKey() + " must be a number of 0 or more");
                }
                set.put(field.getKey(), field.getValue().asDouble());
            }
        }
        List<String> remove = new ArrayList<>();
        JsonNode removeNode = body.get("remove");
        if (removeNode != null && !removeNode.isNull()) {
            if (!removeNode.isArray()) {
                throw RestError.BAD_REQUEST.exception("remove must be an array of quota names");
            }
            removeNode.forEach(name -> remove.add(name.asString()));
        }
        if (set.isEmpty() && remove.isEmpty()) {
            throw RestError.BAD_REQUEST.exception("nothing to set or remove");
        }
        quotas.alter(entity, set, remove);
        return ResponseEntity.noContent().build();
    }

    private static void component(String type, String name, List<ClientQuotaFilterComponent> components) {
        if (name == null || name.isBlank()) {
            return;
        }
        components.add(DEFAULT.equals(name) ? ClientQuotaFilterComponent.ofDefaultEntity(type)
            : ClientQuotaFilterComponent.ofEntity(type, name));
    }

    private static ClientQuota view(String clusterId, EntityQuotas quotas) {
        List<EntityPart> entity = new ArrayList<>();
        quotas.entity().forEach((type, name) -> entity.add(new EntityPart(type, name)));
        return new ClientQuota("KafkaClientQuota", V3Links.self(clusterId, "/client-quotas"), clusterId, entity,
            quotas.values());
    }
}
