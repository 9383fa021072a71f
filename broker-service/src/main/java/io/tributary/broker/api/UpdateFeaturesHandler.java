package io.tributary.broker.api;

import io.tributary.broker.cluster.FeatureManager;
import io.tributary.broker.cluster.ZooKeeperClientException;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.UpdateFeaturesRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.UpdateFeaturesRequest;
import org.apache.kafka.common.requests.UpdateFeaturesResponse;

/**
 * UpdateFeatures (v0-2, KIP-584; {@code kafka-features upgrade|downgrade|disable},
 * {@code Admin.updateFeatures}): finalizes feature levels in {@code /feature} through
 * {@link FeatureManager}, all of a request or none. v0's AllowDowngrade is a safe downgrade; v1 adds
 * the upgrade type and ValidateOnly. As Kafka 4's controller, an error is answered at the top level
 * (INVALID_UPDATE_VERSION with the reason, such as "Broker 1 only supports versions 0-1"), and
 * v0-1 answers list every feature with NONE when the request succeeded. Any broker serves it (the
 * admin client sends it to any broker). Needs ALTER on the cluster: otherwise
 * CLUSTER_AUTHORIZATION_FAILED.
 */
public final class UpdateFeaturesHandler extends VersionedHandler {

    private final FeatureManager features;
    private final BrokerAuthorizer authorizer;

    public UpdateFeaturesHandler(FeatureManager features, BrokerAuthorizer authorizer) {
        super(ApiKeys.UPDATE_FEATURES, 0, 2);
        this.features = features;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        UpdateFeaturesRequestData request = ((UpdateFeaturesRequest) r).data();
        Set<String> names = new java.util.LinkedHashSet<>();
        request.featureUpdates().forEach(u -> names.add(u.feature()));
        if (!authorizer.authorizeCluster(context, AclOperation.ALTER)) {
            return answer(context, new ApiError(Errors.CLUSTER_AUTHORIZATION_FAILED), names);
        }
        Map<String, FeatureManager.Update> updates = new LinkedHashMap<>();
        for (UpdateFeaturesRequestData.FeatureUpdateKey update : request.featureUpdates()) {
            FeatureUpdate.UpgradeType type = context.apiVersion() == 0
                ? (update.allowDowngrade() ? FeatureUpdate.UpgradeType.SAFE_DOWNGRADE : FeatureUpdate.UpgradeType.UPGRADE)
                : FeatureUpdate.UpgradeType.fromCode(update.upgradeType());
            updates.put(update.feature(), new FeatureManager.Update(update.maxVersionLevel(), type));
        }
        ApiError result;
        try {
            result = features.update(updates, context.apiVersion() >= 1 && request.validateOnly());
        } catch (ZooKeeperClientException e) {
            result = new ApiError(Errors.UNKNOWN_SERVER_ERROR, "Could not write the finalized features: " + e.getMessage());
        }
        return answer(context, result, names);
    }

    private static CompletableFuture<Response> answer(RequestContext context, ApiError error, Set<String> features) {
        return Responses.completed(context, UpdateFeaturesResponse.createWithErrors(error,
            error.isSuccess() ? features : Set.of(), 0));
    }
}
