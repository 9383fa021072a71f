package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.KafkaFutures;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.springframework.stereotype.Service;

/**
 * Client quotas through DescribeClientQuotas and AlterClientQuotas (KIP-546): the quota values
 * ({@code producer_byte_rate}, {@code consumer_byte_rate}, {@code request_percentage},
 * {@code controller_mutation_rate}, ...) of user, client-id and default entities. The brokers want
 * DESCRIBE_CONFIGS on the cluster to list, ALTER_CONFIGS to change. Knows nothing of HTTP. Thread-safe.
 */
@Service
public class ClientQuotasAdmin {

    /**
     * An entity's quotas.
     *
     * @param entity entity type ({@code user}, {@code client-id}, {@code ip}) to name, a null name being
     *               that type's default entity; sorted by type
     * @param values quota name to value, sorted by name
     */
    public record EntityQuotas(Map<String, String> entity, Map<String, Double> values) {
    }

    private final Admin admin;

    public ClientQuotasAdmin(Admin admin) {
        this.admin = admin;
    }

    /**
     * The quotas of the entities matching {@code components} (non-strict: an entity may have other
     * types too), sorted by their entity types and names (defaults first).
     */
    public List<EntityQuotas> describe(List<ClientQuotaFilterComponent> components) {
        Map<ClientQuotaEntity, Map<String, Double>> found = KafkaFutures.get(
            admin.describeClientQuotas(ClientQuotaFilter.contains(components)).entities());
        List<EntityQuotas> quotas = new ArrayList<>();
        found.forEach((entity, values) -> quotas.add(new EntityQuotas(new TreeMap<>(entity.entries()),
            new TreeMap<>(values))));
        quotas.sort(Comparator.comparing(q -> key(q.entity())));
        return quotas;
    }

    /** Sets and removes quota values of one entity in one AlterClientQuotas call. */
    public void alter(Map<String, String> entity, Map<String, Double> set, List<String> remove) {
        List<ClientQuotaAlteration.Op> ops = new ArrayList<>();
        set.forEach((name, value) -> ops.add(new ClientQuotaAlteration.Op(name, value)));
        remove.forEach(name -> ops.add(new ClientQuotaAlteration.Op(name, null)));
        KafkaFutures.get(admin.alterClientQuotas(List.of(new ClientQuotaAlteration(new ClientQuotaEntity(entity),
            ops))).all());
    }

    private static String key(Map<String, String> entity) {
        StringBuilder key = new StringBuilder();
        entity.forEach((type, name) -> key.append(type).append('\u0000').append(name == null ? "" : "\u0001" + name)
            .append('\u0000'));
        return key.toString();
    }
}
