package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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
 * DescribeClientQuotas (v0-1, KIP-546): this broker enforces no client quotas and serves no
 * AlterClientQuotas, so every valid filter matches no entity. It exists because Kafka's
 * kafka-configs describes a user's quotas before its SCRAM credentials and fails without it.
 * Filters are validated as Kafka validates them ({@code ZkAdminManager.describeClientQuotas}):
 * an entity type twice, an empty entity type, or an IP with a user or client id is
 * INVALID_REQUEST; an entity type other than user, client-id and ip is UNSUPPORTED_VERSION.
 * Quota keys Kafka wrote into users' config nodes are kept (see the SCRAM credential store) but
 * not reported, as nothing enforces them. Needs DESCRIBE_CONFIGS on the cluster: otherwise
 * CLUSTER_AUTHORIZATION_FAILED, checked before the filter, as Kafka.
 */
public final class DescribeClientQuotasHandler extends VersionedHandler {

    private final BrokerAuthorizer authorizer;

    DescribeClientQuotasHandler(BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_CLIENT_QUOTAS, 0, 1);
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
        }
        return Responses.completed(context, new DescribeClientQuotasResponse(response));
    }
}
