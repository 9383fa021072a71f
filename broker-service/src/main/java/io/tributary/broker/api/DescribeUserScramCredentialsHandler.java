package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.security.ScramCredentialStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.CredentialInfo;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.DescribeUserScramCredentialsRequest;
import org.apache.kafka.common.requests.DescribeUserScramCredentialsResponse;

/**
 * DescribeUserScramCredentials (v0, KIP-554): the mechanisms and iterations of users' SCRAM
 * credentials, read from ZooKeeper. No users (null or empty) lists every user that has one;
 * a user asked for without credentials gets RESOURCE_NOT_FOUND. Never the keys themselves.
 * Needs DESCRIBE on the cluster: otherwise CLUSTER_AUTHORIZATION_FAILED at the top level and for
 * each user named, without reading the store, as Kafka.
 */
public final class DescribeUserScramCredentialsHandler extends VersionedHandler {

    private final ScramCredentialStore store;
    private final BrokerAuthorizer authorizer;

    DescribeUserScramCredentialsHandler(ScramCredentialStore store, BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS, 0, 0);
        this.store = store;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DescribeUserScramCredentialsRequestData request = ((DescribeUserScramCredentialsRequest) r).data();
        DescribeUserScramCredentialsResponseData response = new DescribeUserScramCredentialsResponseData()
            .setThrottleTimeMs(0);
        if (!authorizer.authorizeCluster(context, AclOperation.DESCRIBE)) {
            // The request's getErrorResponse, which fails on a null (all users) list.
            Errors denied = Errors.CLUSTER_AUTHORIZATION_FAILED;
            response.setErrorCode(denied.code()).setErrorMessage(denied.message());
            if (request.users() != null) {
                request.users().forEach(u -> response.results().add(new DescribeUserScramCredentialsResult()
                    .setUser(u.name()).setErrorCode(denied.code()).setErrorMessage(denied.message())));
            }
            return Responses.completed(context, new DescribeUserScramCredentialsResponse(response));
        }
        List<String> users = request.users() == null ? List.of()
            : request.users().stream().map(DescribeUserScramCredentialsRequestData.UserName::name).toList();
        try {
            for (ScramCredentialStore.UserScramCredentials described : store.describe(users)) {
                DescribeUserScramCredentialsResult result = new DescribeUserScramCredentialsResult()
                    .setUser(described.user()).setErrorCode(described.error().error().code())
                    .setErrorMessage(described.error().message());
                described.credentials().forEach(info -> result.credentialInfos().add(new CredentialInfo()
                    .setMechanism(info.mechanism().type()).setIterations(info.iterations())));
                response.results().add(result);
            }
        } catch (RuntimeException e) {
            ApiError error = ApiError.fromThrowable(e);
            response.setErrorCode(error.error().code()).setErrorMessage(error.messageWithFallback())
                .results().clear();
        }
        if (response.errorCode() == Errors.NONE.code()) {
            response.setErrorMessage(null);
        }
        return Responses.completed(context, new DescribeUserScramCredentialsResponse(response));
    }
}
