package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.AclStore;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.CreateAclsRequestData.AclCreation;
import org.apache.kafka.common.message.CreateAclsResponseData.AclCreationResult;
import org.apache.kafka.common.message.CreateAclsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.CreateAclsRequest;
import org.apache.kafka.common.requests.CreateAclsResponse;

/**
 * CreateAcls (v1-3, as Kafka 4 serves it after KIP-896): stores ACL bindings in ZooKeeper, from
 * where every broker's authorizer reads them. One result per creation, in request order:
 * INVALID_REQUEST for a binding that cannot be stored (see {@link AclStore#create}), including
 * one that names ANY or MATCH where a concrete value belongs (the codec cannot even build it).
 */
public final class CreateAclsHandler extends VersionedHandler {

    private final AclStore store;
    private final BrokerAuthorizer authorizer;

    CreateAclsHandler(AclStore store, BrokerAuthorizer authorizer) {
        super(ApiKeys.CREATE_ACLS, 1, 3);
        this.store = store;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        List<AclCreation> creations = ((CreateAclsRequest) r).aclCreations();
        // ALTER on the cluster (as Kafka), else CLUSTER_AUTHORIZATION_FAILED without touching the store.
        if (!authorizer.authorizeCluster(context, AclOperation.ALTER)) {
            return Responses.completed(context, r.getErrorResponse(0, Errors.CLUSTER_AUTHORIZATION_FAILED.exception()));
        }
        ApiError[] errors = new ApiError[creations.size()];
        List<AclBinding> bindings = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < creations.size(); i++) {
            try {
                bindings.add(CreateAclsRequest.aclBinding(creations.get(i)));
                indexes.add(i);
            } catch (IllegalArgumentException e) {
                errors[i] = new ApiError(Errors.INVALID_REQUEST, "Invalid ACL creation: " + e.getMessage());
            }
        }
        List<AclStore.CreateResult> results = store.create(bindings);
        for (int k = 0; k < results.size(); k++) {
            errors[indexes.get(k)] = results.get(k).error();
        }
        CreateAclsResponseData response = new CreateAclsResponseData().setThrottleTimeMs(0);
        for (ApiError error : errors) {
            response.results().add(new AclCreationResult().setErrorCode(error.error().code())
                .setErrorMessage(error.isSuccess() ? null : error.messageWithFallback()));
        }
        return Responses.completed(context, new CreateAclsResponse(response));
    }
}
