package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.AclStore;
import java.util.concurrent.CompletableFuture;
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

    DescribeAclsHandler(AclStore store) {
        super(ApiKeys.DESCRIBE_ACLS, 1, 3);
        this.store = store;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DescribeAclsRequest request = (DescribeAclsRequest) r;
        // AUTHORIZATION: DESCRIBE on CLUSTER (as Kafka). On denial, answer CLUSTER_AUTHORIZATION_FAILED
        // at the top level with no resources, without calling the store.
        DescribeAclsResponseData response = new DescribeAclsResponseData().setThrottleTimeMs(0)
            .setErrorCode(Errors.NONE.code()).setErrorMessage(null)
            .setResources(DescribeAclsResponse.aclsResources(store.acls(request.filter())));
        return Responses.completed(context, new DescribeAclsResponse(response, context.apiVersion()));
    }
}
