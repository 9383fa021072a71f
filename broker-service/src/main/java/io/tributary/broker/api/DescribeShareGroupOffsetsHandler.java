package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.group.ShareGroupOffsets;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsRequestData.DescribeShareGroupOffsetsRequestGroup;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponseGroup;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeShareGroupOffsetsRequest;
import org.apache.kafka.common.requests.DescribeShareGroupOffsetsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeShareGroupOffsets (v0-1, KIP-932; {@code Admin.listShareGroupOffsets}, {@code kafka-share-groups
 * --describe --offsets}): per share group, each share-partition's start offset and leader epoch from
 * the share coordinator (v1: lag, KIP-1226: latest offset minus start offset minus delivery complete count,
 * -1 when unknown), for the named partitions or, with none named, every partition
 * the group has state for; see {@link ShareGroupOffsets}. UNSUPPORTED_VERSION per group while
 * {@code share.version} is below 1; DESCRIBE on the group, else GROUP_AUTHORIZATION_FAILED; a named topic
 * the client may not DESCRIBE is answered TOPIC_AUTHORIZATION_FAILED, an unnamed one is left out.
 */
public final class DescribeShareGroupOffsetsHandler extends VersionedHandler {

    private final ShareGroupOffsets offsets;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public DescribeShareGroupOffsetsHandler(ShareGroupOffsets offsets, MetadataCache metadataCache,
                                            BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_SHARE_GROUP_OFFSETS, 0, 1);
        this.offsets = offsets;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        List<DescribeShareGroupOffsetsRequestGroup> groups = ((DescribeShareGroupOffsetsRequest) r).data().groups();
        boolean enabled = metadataCache.finalizedFeatures().level(BrokerFeatures.SHARE_VERSION) >= 1;
        List<CompletableFuture<DescribeShareGroupOffsetsResponseGroup>> described = new ArrayList<>();
        for (DescribeShareGroupOffsetsRequestGroup group : groups) {
            DescribeShareGroupOffsetsResponseGroup failed = new DescribeShareGroupOffsetsResponseGroup()
                .setGroupId(group.groupId());
            if (!enabled) {
                described.add(CompletableFuture.completedFuture(failed.setErrorCode(Errors.UNSUPPORTED_VERSION.code())
                    .setErrorMessage("Share groups are not enabled: share.version is below 1")));
            } else if (!authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.GROUP, group.groupId())) {
                described.add(CompletableFuture.completedFuture(failed
                    .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())
                    .setErrorMessage(Errors.GROUP_AUTHORIZATION_FAILED.message())));
            } else {
                described.add(offsets.describe(group,
                    topic -> authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.TOPIC, topic)));
            }
        }
        return ShareStateCalls.all(described).thenApply(results -> Responses.of(context,
            new DescribeShareGroupOffsetsResponse(new DescribeShareGroupOffsetsResponseData().setGroups(results))));
    }
}
