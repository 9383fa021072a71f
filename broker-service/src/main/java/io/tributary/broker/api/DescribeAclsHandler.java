package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.AclStore;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeAclsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeAclsRequest;
import org.apache.kafka.common.requests.DescribeAclsResponse;

/**
 * DescribeAcls (v1-3, as Kafka 4 serves it after KIP-896): the ACL bindings that match the
 * filter, from this broker's view, grouped by resource pattern as the response carries them.
 */
public final class DescribeAclsHandler extends VersionedHandler {

    private final AclStore store;

    DescribeAclsHandler(AclStore store, BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_ACLS, 1, 3);
        this.store = store;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DescribeAclsRequest request = (DescribeAclsRequest) r;
        // DESCRIBE on the cluster (as Kafka), else CLUSTER_AUTHORIZATION_FAILED without touching the store.
        if (!authorizer.authorizeCluster(context, AclOperation.DESCRIBE)) {
            return Responses.completed(context, r.getErrorResponse(0, Errors.CLUSTER_AUTHORIZATION_FAILED.exception()));
        }
        DescribeAclsResponseData response = new DescribeAclsResponseData().setThrottleTimeMs(0)
            .setErrorCode(Errors.NONE.code()).setErrorMessage(null)
            .setResources(DescribeAclsResponse.aclsResources(store.acls(request.filter())));
        return Responses.completed(context, new DescribeAclsResponse(response, context.apiVersion()));
    }
}
