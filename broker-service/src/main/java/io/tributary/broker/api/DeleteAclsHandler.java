package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.AclStore;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteAclsResponseData.DeleteAclsFilterResult;
import org.apache.kafka.common.message.DeleteAclsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.DeleteAclsRequest;
import org.apache.kafka.common.requests.DeleteAclsResponse;

/**
 * DeleteAcls (v1-3, as Kafka 4 serves it after KIP-896): deletes the ACL bindings that match each
 * filter from ZooKeeper. One result per filter, in request order, listing the bindings it deleted;
 * a filter's error (INVALID_REQUEST, or a ZooKeeper failure) is set on the filter.
 */
public final class DeleteAclsHandler extends VersionedHandler {

    private final AclStore store;
    private final BrokerAuthorizer authorizer;

    DeleteAclsHandler(AclStore store, BrokerAuthorizer authorizer) {
        super(ApiKeys.DELETE_ACLS, 1, 3);
        this.store = store;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DeleteAclsRequest request = (DeleteAclsRequest) r;
        // ALTER on the cluster (as Kafka), else CLUSTER_AUTHORIZATION_FAILED without touching the store.
        if (!authorizer.authorizeCluster(context, AclOperation.ALTER)) {
            return Responses.completed(context, r.getErrorResponse(0, Errors.CLUSTER_AUTHORIZATION_FAILED.exception()));
        }
        DeleteAclsResponseData response = new DeleteAclsResponseData().setThrottleTimeMs(0);
        for (AclStore.DeleteResult result : store.delete(request.filters())) {
            DeleteAclsFilterResult filterResult = new DeleteAclsFilterResult()
                .setErrorCode(result.error().error().code())
                .setErrorMessage(result.error().isSuccess() ? null : result.error().messageWithFallback());
            result.deleted().forEach(binding -> filterResult.matchingAcls().add(
                DeleteAclsResponse.matchingAcl(binding, ApiError.NONE)));
            response.filterResults().add(filterResult);
        }
        return Responses.completed(context, new DeleteAclsResponse(response, context.apiVersion()));
    }
}
