package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.group.ShareGroupOffsets;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteShareGroupOffsetsRequestData;
import org.apache.kafka.common.message.DeleteShareGroupOffsetsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DeleteShareGroupOffsetsRequest;
import org.apache.kafka.common.requests.DeleteShareGroupOffsetsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DeleteShareGroupOffsets (v0, KIP-932; {@code Admin.deleteShareGroupOffsets}, {@code kafka-share-groups
 * --delete-offsets}): an empty share group's state of whole topics is deleted (DeleteShareGroupState),
 * so its next consumer starts from {@code share.auto.offset.reset}; see {@link ShareGroupOffsets}.
 * Top-level errors: UNSUPPORTED_VERSION while {@code share.version} is below 1,
 * GROUP_AUTHORIZATION_FAILED without DELETE on the group, NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND, the
 * coordinator's; per topic TOPIC_AUTHORIZATION_FAILED without READ on it, UNKNOWN_TOPIC_OR_PARTITION,
 * the share coordinator's.
 */
public final class DeleteShareGroupOffsetsHandler extends VersionedHandler {

    private final ShareGroupOffsets offsets;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public DeleteShareGroupOffsetsHandler(ShareGroupOffsets offsets, MetadataCache metadataCache,
                                          BrokerAuthorizer authorizer) {
        super(ApiKeys.DELETE_SHARE_GROUP_OFFSETS, 0, 0);
        this.offsets = offsets;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DeleteShareGroupOffsetsRequestData data = ((DeleteShareGroupOffsetsRequest) r).data();
        Errors refused = metadataCache.finalizedFeatures().level(BrokerFeatures.SHARE_VERSION) < 1
            ? Errors.UNSUPPORTED_VERSION
            : !authorizer.authorize(context, AclOperation.DELETE, ResourceType.GROUP, data.groupId())
            ? Errors.GROUP_AUTHORIZATION_FAILED : Errors.NONE;
        if (refused != Errors.NONE) {
            return Responses.completed(context, new DeleteShareGroupOffsetsResponse(
                new DeleteShareGroupOffsetsResponseData().setErrorCode(refused.code()).setErrorMessage(refused.message())));
        }
        return offsets.delete(data, topic -> authorizer.authorize(context, AclOperation.READ, ResourceType.TOPIC, topic))
            .thenApply(response -> Responses.of(context, new DeleteShareGroupOffsetsResponse(response)));
    }
}
