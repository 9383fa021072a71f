package io.tributary.broker.api;

import io.tributary.broker.audit.RefusedRequestLog;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaEntity;
import io.tributary.broker.quota.ClientQuotaStore;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.AlterClientQuotasRequestData;
import org.apache.kafka.common.message.AlterClientQuotasResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AlterClientQuotasRequest;
import org.apache.kafka.common.requests.AlterClientQuotasResponse;

/**
 * AlterClientQuotas (v0-1, KIP-546): sets and removes the quotas of users, client ids and users'
 * client ids, names or defaults (a null name), in ZooKeeper as Kafka's ZooKeeper mode stores them
 * ({@link ClientQuotaStore}); {@code kafka-configs --entity-type users|clients --alter} sends it.
 * Each entry succeeds or fails alone, with Kafka's checks: an empty entity, a type twice, a user or
 * client id with an IP, or an unknown type is INVALID_REQUEST; so is a key that is not
 * {@code producer_byte_rate}, {@code consumer_byte_rate}, {@code request_percentage} or
 * {@code controller_mutation_rate}, a negative value, or a fraction for a byte rate. IP entities
 * ({@code connection_creation_rate}, KIP-612) are refused: this broker does not limit connection
 * rates. {@code validate_only} checks without writing. Needs ALTER_CONFIGS on the cluster
 * (CLUSTER_AUTHORIZATION_FAILED otherwise).
 */
public final class AlterClientQuotasHandler extends VersionedHandler {

    private final ClientQuotaStore store;
    private final BrokerAuthorizer authorizer;
    private final RefusedRequestLog refusals;

    AlterClientQuotasHandler(ClientQuotaStore store, BrokerAuthorizer authorizer, RefusedRequestLog refusals) {
        super(ApiKeys.ALTER_CLIENT_QUOTAS, 0, 1);
        this.store = store;
        this.authorizer = authorizer;
        this.refusals = refusals;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        AlterClientQuotasRequestData request = ((AlterClientQuotasRequest) r).data();
        boolean allowed = authorizer.authorizeCluster(context, AclOperation.ALTER_CONFIGS);
        AlterClientQuotasResponseData response = new AlterClientQuotasResponseData().setThrottleTimeMs(0);
        for (AlterClientQuotasRequestData.EntryData entry : request.entries()) {
            AlterClientQuotasResponseData.EntryData result = new AlterClientQuotasResponseData.EntryData();
            entry.entity().forEach(e -> result.entity().add(new AlterClientQuotasResponseData.EntityData()
                .setEntityType(e.entityType()).setEntityName(e.entityName())));
            Errors error = Errors.NONE;
            String message = null;
            if (!allowed) {
                error = Errors.CLUSTER_AUTHORIZATION_FAILED;
            } else {
                try {
                    ClientQuotaEntity entity = entity(entry);
                    Map<String, Double> changes = changes(entry);
                    if (!request.validateOnly()) {
                        store.alter(entity, changes);
                    }
                } catch (IllegalArgumentException e) {
                    error = Errors.INVALID_REQUEST;
                    message = e.getMessage();
                    refusals.refused(RefusedRequestLog.Kind.CONFIG, context, "refused the client quotas of "
                        + entry.entity() + " with INVALID_REQUEST: " + message);
                }
            }
            response.entries().add(result.setErrorCode(error.code()).setErrorMessage(message));
        }
        return Responses.completed(context, new AlterClientQuotasResponse(response));
    }

    private static ClientQuotaEntity entity(AlterClientQuotasRequestData.EntryData entry) {
        String user = null;
        String clientId = null;
        boolean hasUser = false;
        boolean hasClient = false;
        if (entry.entity().isEmpty()) {
            throw new IllegalArgumentException("Invalid empty client quota entity");
        }
        for (AlterClientQuotasRequestData.EntityData e : entry.entity()) {
            String name = e.entityName() == null ? ClientQuotaEntity.DEFAULT : e.entityName();
            switch (e.entityType()) {
                case org.apache.kafka.common.quota.ClientQuotaEntity.USER -> {
                    if (hasUser) {
                        throw new IllegalArgumentException("Duplicate user entity type");
                    }
                    hasUser = true;
                    user = name;
                }
                case org.apache.kafka.common.quota.ClientQuotaEntity.CLIENT_ID -> {
                    if (hasClient) {
                        throw new IllegalArgumentException("Duplicate client-id entity type");
                    }
                    hasClient = true;
                    clientId = name;
                }
                case org.apache.kafka.common.quota.ClientQuotaEntity.IP -> throw new IllegalArgumentException(
                    "IP quotas (connection_creation_rate) are not supported by this broker");
                default -> throw new IllegalArgumentException("Unhandled client quota entity type: " + e.entityType());
            }
            if (name.isEmpty()) {
                throw new IllegalArgumentException("Empty " + e.entityType() + " entity name");
            }
        }
        return new ClientQuotaEntity(user, clientId);
    }

    private static Map<String, Double> changes(AlterClientQuotasRequestData.EntryData entry) {
        Map<String, Double> changes = new LinkedHashMap<>();
        for (AlterClientQuotasRequestData.OpData op : entry.ops()) {
            Boolean whole = ClientQuotaStore.QUOTA_KEYS.get(op.key());
            if (whole == null) {
                throw new IllegalArgumentException("Invalid configuration key " + op.key());
            }
            if (op.remove()) {
                changes.put(op.key(), null);
                continue;
            }
            double value = op.value();
            if (Double.isNaN(value) || Double.isInfinite(value) || value < 0) {
                throw new IllegalArgumentException("Invalid value " + value + " for " + op.key() + ": must not be negative");
            }
            if (whole && value != Math.rint(value)) {
                throw new IllegalArgumentException("Configuration " + op.key() + " must be a Long value");
            }
            changes.put(op.key(), value);
        }
        return changes;
    }
}
