package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.group.ShareGroupOffsets;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.AlterShareGroupOffsetsRequestData;
import org.apache.kafka.common.message.AlterShareGroupOffsetsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AlterShareGroupOffsetsRequest;
import org.apache.kafka.common.requests.AlterShareGroupOffsetsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * AlterShareGroupOffsets (v0, KIP-932; {@code Admin.alterShareGroupOffsets}, {@code kafka-share-groups
 * --reset-offsets --execute}): an empty share group's share-partitions start again at the given offsets
 * (InitializeShareGroupState in a new state epoch); see {@link ShareGroupOffsets}. Top-level errors:
 * UNSUPPORTED_VERSION while {@code share.version} is below 1, GROUP_AUTHORIZATION_FAILED without READ
 * on the group, NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND, the coordinator's; per partition
 * TOPIC_AUTHORIZATION_FAILED without READ on the topic, UNKNOWN_TOPIC_OR_PARTITION, the share coordinator's.
 */
public final class AlterShareGroupOffsetsHandler extends VersionedHandler {

    private final ShareGroupOffsets offsets;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public AlterShareGroupOffsetsHandler(ShareGroupOffsets offsets, MetadataCache metadataCache,
                                         BrokerAuthorizer authorizer) {
        super(ApiKeys.ALTER_SHARE_GROUP_OFFSETS, 0, 0);
        this.offsets = offsets;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        AlterShareGroupOffsetsRequestData data = ((AlterShareGroupOffsetsRequest) r).data();
        Errors refused = metadataCache.finalizedFeatures().level(BrokerFeatures.SHARE_VERSION) < 1
            ? Errors.UNSUPPORTED_VERSION
            : !authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, data.groupId())
            ? Errors.GROUP_AUTHORIZATION_FAILED : Errors.NONE;
        if (refused != Errors.NONE) {
            return Responses.completed(context, new AlterShareGroupOffsetsResponse(new AlterShareGroupOffsetsResponseData()
                .setErrorCode(refused.code()).setErrorMessage(refused.message())));
        }
        return offsets.alter(data, topic -> authorizer.authorize(context, AclOperation.READ, ResourceType.TOPIC, topic))
            .thenApply(response -> Responses.of(context, new AlterShareGroupOffsetsResponse(response)));
    }
}
