package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ConsumerGroupDescribeRequestData;
import org.apache.kafka.common.message.ConsumerGroupDescribeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ConsumerGroupDescribeRequest;
import org.apache.kafka.common.requests.ConsumerGroupDescribeResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ConsumerGroupDescribe (v0-1, KIP-848): each group's epochs, assignor and members with their
 * subscriptions, assignments and target assignments. DESCRIBE on the group, else
 * GROUP_AUTHORIZATION_FAILED; GROUP_ID_NOT_FOUND for an unknown or classic group (the admin client
 * then describes it with DescribeGroups).
 */
public final class ConsumerGroupDescribeHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;
    private final BrokerAuthorizer authorizer;

    public ConsumerGroupDescribeHandler(GroupCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.CONSUMER_GROUP_DESCRIBE, 0, 1);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ConsumerGroupDescribeRequestData data = ((ConsumerGroupDescribeRequest) r).data();
        ConsumerGroupDescribeResponseData response = new ConsumerGroupDescribeResponseData();
        for (String groupId : data.groupIds()) {
            if (!authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                response.groups().add(new ConsumerGroupDescribeResponseData.DescribedGroup().setGroupId(groupId)
                    .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()));
                continue;
            }
            ConsumerGroupDescribeResponseData.DescribedGroup described = coordinator.modernGroups().describeConsumerGroup(groupId);
            if (data.includeAuthorizedOperations() && described.errorCode() == Errors.NONE.code()) {
                described.setAuthorizedOperations(AuthorizedOperations.of(authorizer, context, ResourceType.GROUP,
                    groupId));
            }
            response.groups().add(described);
        }
        return Responses.completed(context, new ConsumerGroupDescribeResponse(response));
    }
}
