package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ShareGroupDescribeRequestData;
import org.apache.kafka.common.message.ShareGroupDescribeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ShareGroupDescribeRequest;
import org.apache.kafka.common.requests.ShareGroupDescribeResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ShareGroupDescribe (v1, KIP-932): each share group's state, epochs, assignor and members with
 * their subscriptions and assignments. UNSUPPORTED_VERSION while {@code share.version} is below 1.
 * DESCRIBE on the group, else GROUP_AUTHORIZATION_FAILED; a group whose members subscribe to or are
 * assigned a topic the client may not DESCRIBE is answered TOPIC_AUTHORIZATION_FAILED without its
 * members, as Kafka 4 does; GROUP_ID_NOT_FOUND for an unknown group or one of another type.
 */
public final class ShareGroupDescribeHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public ShareGroupDescribeHandler(GroupCoordinator coordinator, MetadataCache metadataCache,
                                     BrokerAuthorizer authorizer) {
        super(ApiKeys.SHARE_GROUP_DESCRIBE, 1, 1);
        this.coordinator = coordinator;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ShareGroupDescribeRequestData data = ((ShareGroupDescribeRequest) r).data();
        ShareGroupDescribeResponseData response = new ShareGroupDescribeResponseData();
        boolean enabled = metadataCache.finalizedFeatures().level(BrokerFeatures.SHARE_VERSION) >= 1;
        for (String groupId : data.groupIds()) {
            ShareGroupDescribeResponseData.DescribedGroup described;
            if (!enabled) {
                described = new ShareGroupDescribeResponseData.DescribedGroup().setGroupId(groupId)
                    .setErrorCode(Errors.UNSUPPORTED_VERSION.code())
                    .setErrorMessage("Share groups are not enabled: share.version is below 1");
            } else if (!authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                described = new ShareGroupDescribeResponseData.DescribedGroup().setGroupId(groupId)
                    .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code());
            } else {
                described = coordinator.modernGroups().describeShareGroup(groupId);
                if (described.errorCode() == Errors.NONE.code()) {
                    Set<String> topics = new HashSet<>();
                    described.members().forEach(m -> {
                        topics.addAll(m.subscribedTopicNames());
                        m.assignment().topicPartitions().stream().map(tp -> tp.topicName()).filter(n -> !n.isEmpty())
                            .forEach(topics::add);
                    });
                    if (authorizer.filter(context, AclOperation.DESCRIBE, ResourceType.TOPIC, topics).size()
                            < topics.size()) {
                        described = new ShareGroupDescribeResponseData.DescribedGroup().setGroupId(groupId)
                            .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                            .setErrorMessage("The described group uses topics that the client is not authorized to "
                                + "describe.");
                    } else if (data.includeAuthorizedOperations()) {
                        described.setAuthorizedOperations(AuthorizedOperations.of(authorizer, context,
                            ResourceType.GROUP, groupId));
                    }
                }
            }
            response.groups().add(described);
        }
        return Responses.completed(context, new ShareGroupDescribeResponse(response));
    }
}
