package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaStore;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeClientQuotasRequest;
import org.apache.kafka.common.requests.DescribeClientQuotasResponse;

/**
 * DescribeClientQuotas (v0-1, KIP-546): the quotas set on users, client ids and users' client ids
 * ({@link ClientQuotaStore}, read from ZooKeeper as Kafka's ZooKeeper mode reads them) whose entity
 * matches the filter. Each filter component names an entity type and matches a name exactly
 * ({@code MATCH_TYPE_EXACT}), the default ({@code MATCH_TYPE_DEFAULT}) or any name but the default
 * ({@code MATCH_TYPE_SPECIFIED}); with {@code strict} an entity must have no other type than the
 * components name, otherwise it may have more. Filters are validated as Kafka validates them
 * ({@code ZkAdminManager.describeClientQuotas}): an entity type twice, an empty entity type, or an
 * IP with a user or client id is INVALID_REQUEST; an entity type other than user, client-id and ip
 * is UNSUPPORTED_VERSION. Needs DESCRIBE_CONFIGS on the cluster: otherwise
 * CLUSTER_AUTHORIZATION_FAILED, checked before the filter, as Kafka.
 */
public final class DescribeClientQuotasHandler extends VersionedHandler {

    private final Supplier<Map<io.tributary.broker.quota.ClientQuotaEntity, Map<String, Double>>> quotas;
    private final BrokerAuthorizer authorizer;

    /** @param quotas every entity with quotas ({@link ClientQuotaStore#readAll}; blocking, on a handler thread) */
    DescribeClientQuotasHandler(Supplier<Map<io.tributary.broker.quota.ClientQuotaEntity, Map<String, Double>>> quotas,
                                BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_CLIENT_QUOTAS, 0, 1);
        this.quotas = quotas;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        if (!authorizer.authorizeCluster(context, AclOperation.DESCRIBE_CONFIGS)) {
            return Responses.completed(context, r.getErrorResponse(0, Errors.CLUSTER_AUTHORIZATION_FAILED.exception()));
        }
        DescribeClientQuotasRequestData request = ((DescribeClientQuotasRequest) r).data();
        DescribeClientQuotasResponseData response = new DescribeClientQuotasResponseData().setThrottleTimeMs(0)
            .setErrorCode(Errors.NONE.code()).setErrorMessage(null).setEntries(List.of());
        String invalid = null;
        Errors error = Errors.NONE;
        Set<String> types = new HashSet<>();
        for (DescribeClientQuotasRequestData.ComponentData component : request.components()) {
            String type = component.entityType();
            if (type.isEmpty()) {
                error = Errors.INVALID_REQUEST;
                invalid = "Unexpected empty filter component entity type";
            } else if (!type.equals(ClientQuotaEntity.USER) && !type.equals(ClientQuotaEntity.CLIENT_ID)
                && !type.equals(ClientQuotaEntity.IP)) {
                error = Errors.UNSUPPORTED_VERSION;
                invalid = "Custom entity type '" + type + "' not supported";
            } else if (!types.add(type)) {
                error = Errors.INVALID_REQUEST;
                invalid = "Duplicate " + type + " filter component entity type";
            }
            if (invalid != null) {
                break;
            }
        }
        if (invalid == null && types.contains(ClientQuotaEntity.IP)
            && (types.contains(ClientQuotaEntity.USER) || types.contains(ClientQuotaEntity.CLIENT_ID))) {
            error = Errors.INVALID_REQUEST;
            invalid = "Invalid entity filter component combination, IP filter component should not be used with user or "
                + "clientId filter component.";
        }
        if (invalid != null) {
            response.setErrorCode(error.code()).setErrorMessage(invalid).setEntries(null);
            return Responses.completed(context, new DescribeClientQuotasResponse(response));
        }
        List<DescribeClientQuotasResponseData.EntryData> entries = new ArrayList<>();
        quotas.get().forEach((entity, values) -> {
            Map<String, String> wire = entity.toWire();
            if (!matches(wire, request.components(), request.strict())) {
                return;
            }
            DescribeClientQuotasResponseData.EntryData entry = new DescribeClientQuotasResponseData.EntryData();
            wire.forEach((type, name) -> entry.entity().add(
                new DescribeClientQuotasResponseData.EntityData().setEntityType(type).setEntityName(name)));
            values.forEach((key, value) -> entry.values().add(
                new DescribeClientQuotasResponseData.ValueData().setKey(key).setValue(value)));
            entries.add(entry);
        });
        response.setEntries(entries);
        return Responses.completed(context, new DescribeClientQuotasResponse(response));
    }

    /** Whether an entity (type to name, null for a default) matches every component, and no more with {@code strict}. */
    static boolean matches(Map<String, String> entity, List<DescribeClientQuotasRequestData.ComponentData> components,
                           boolean strict) {
        for (DescribeClientQuotasRequestData.ComponentData component : components) {
            if (!entity.containsKey(component.entityType())) {
                return false;
            }
            String name = entity.get(component.entityType());
            boolean match = switch (component.matchType()) {
                case DescribeClientQuotasRequest.MATCH_TYPE_EXACT -> name != null && name.equals(component.match());
                case DescribeClientQuotasRequest.MATCH_TYPE_DEFAULT -> name == null;
                case DescribeClientQuotasRequest.MATCH_TYPE_SPECIFIED -> name != null;
                default -> false;
            };
            if (!match) {
                return false;
            }
        }
        return !strict || entity.size() == components.size();
    }
}
