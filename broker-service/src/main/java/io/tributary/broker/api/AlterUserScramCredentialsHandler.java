package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.security.ScramCredentialStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AlterUserScramCredentialsRequest;
import org.apache.kafka.common.requests.AlterUserScramCredentialsResponse;
import org.apache.kafka.common.requests.ApiError;

/**
 * AlterUserScramCredentials (v0, KIP-554): upserts (the client sends salt and salted password,
 * never the password) and deletions of SCRAM credentials, stored in ZooKeeper, from where every
 * broker's authenticator reads them. One result per user named in the request. Needs ALTER on
 * the cluster: otherwise every user named gets CLUSTER_AUTHORIZATION_FAILED and the store is not
 * touched, as Kafka.
 */
public final class AlterUserScramCredentialsHandler extends VersionedHandler {

    private final ScramCredentialStore store;
    private final BrokerAuthorizer authorizer;

    AlterUserScramCredentialsHandler(ScramCredentialStore store, BrokerAuthorizer authorizer) {
        super(ApiKeys.ALTER_USER_SCRAM_CREDENTIALS, 0, 0);
        this.store = store;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        if (!authorizer.authorizeCluster(context, AclOperation.ALTER)) {
            return Responses.clusterAuthorizationFailed(context, r);
        }
        AlterUserScramCredentialsRequestData request = ((AlterUserScramCredentialsRequest) r).data();
        List<ScramCredentialStore.Upsertion> upsertions = request.upsertions().stream()
            .map(u -> new ScramCredentialStore.Upsertion(u.name(), ScramMechanism.fromType(u.mechanism()), u.iterations(),
                u.salt(), u.saltedPassword()))
            .toList();
        List<ScramCredentialStore.Deletion> deletions = request.deletions().stream()
            .map(d -> new ScramCredentialStore.Deletion(d.name(), ScramMechanism.fromType(d.mechanism())))
            .toList();
        AlterUserScramCredentialsResponseData response = new AlterUserScramCredentialsResponseData().setThrottleTimeMs(0);
        for (Map.Entry<String, ApiError> result : store.alter(upsertions, deletions).entrySet()) {
            response.results().add(new AlterUserScramCredentialsResult().setUser(result.getKey())
                .setErrorCode(result.getValue().error().code()).setErrorMessage(result.getValue().message()));
        }
        return Responses.completed(context, new AlterUserScramCredentialsResponse(response));
    }
}
