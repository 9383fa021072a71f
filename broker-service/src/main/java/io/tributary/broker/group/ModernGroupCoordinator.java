package io.tributary.broker.group;

import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.ConsumerGroupDescribeResponseData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.message.ShareGroupDescribeResponseData;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * The entry points of the groups whose membership the coordinator runs itself, as Kafka 4 calls
 * them "modern" groups: KIP-848 consumer groups (ConsumerGroupHeartbeat, ConsumerGroupDescribe) and
 * KIP-932 share groups (ShareGroupHeartbeat, ShareGroupDescribe).
 * It checks that this broker coordinates the group and hands the request to the group type's state
 * machine; the groups live in the same registry as classic groups ({@link GroupMetadataManager}),
 * so a group id has one type at a time. Reached with {@link GroupCoordinator#modernGroups()}.
 *
 * <p>Thread-safe.
 */
public final class ModernGroupCoordinator {

    private final GroupMetadataManager groups;
    private final ConsumerGroupHeartbeats consumerGroups;
    private final ShareGroupHeartbeats shareGroups;
    private final GroupTopics topicNames;

    ModernGroupCoordinator(GroupMetadataManager groups, ConsumerGroupHeartbeats consumerGroups,
                           ShareGroupHeartbeats shareGroups, GroupTopics topicNames) {
        this.groups = groups;
        this.consumerGroups = consumerGroups;
        this.shareGroups = shareGroups;
        this.topicNames = topicNames;
    }

    /**
     * ConsumerGroupHeartbeat (KIP-848); see {@link ConsumerGroupHeartbeats} for what it does and its errors.
     *
     * @param version the request version (v0: the coordinator names a joining member; v1+: the client)
     */
    public CompletableFuture<ConsumerGroupHeartbeatResponseData> consumerGroupHeartbeat(
            ConsumerGroupHeartbeatRequestData request, short version, String clientId, String clientHost) {
        Errors error = GroupCoordinator.invalidGroupId(request.groupId()) ? Errors.INVALID_REQUEST
            : groups.coordinatorError(request.groupId());
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(new ConsumerGroupHeartbeatResponseData()
                .setErrorCode(error.code())
                .setErrorMessage(error == Errors.INVALID_REQUEST ? "GroupId can't be empty." : error.message()));
        }
        return consumerGroups.heartbeat(request, version, clientId, clientHost);
    }

    /**
     * ConsumerGroupDescribe (KIP-848) of one group: GROUP_ID_NOT_FOUND for an unknown group or one of
     * another type (the admin client then asks DescribeGroups).
     */
    public ConsumerGroupDescribeResponseData.DescribedGroup describeConsumerGroup(String groupId) {
        Errors error = GroupCoordinator.invalidGroupId(groupId) ? Errors.INVALID_GROUP_ID : groups.coordinatorError(groupId);
        return ConsumerGroupDescriber.describe(groupId, error, groups.group(groupId), topicNames, consumerGroups);
    }

    /**
     * ShareGroupHeartbeat v1 (KIP-932); see {@link ShareGroupHeartbeats} for what it does and its
     * errors. INVALID_REQUEST with Kafka's message for a malformed request, NOT_COORDINATOR or
     * COORDINATOR_LOAD_IN_PROGRESS when this broker does not serve the group now. The caller checks
     * {@code share.version} and authorization.
     */
    public CompletableFuture<ShareGroupHeartbeatResponseData> shareGroupHeartbeat(ShareGroupHeartbeatRequestData request,
                                                                                 String clientId, String clientHost) {
        String invalid = ShareGroupHeartbeats.invalidRequest(request);
        if (invalid != null) {
            return CompletableFuture.completedFuture(ShareGroupHeartbeats.error(Errors.INVALID_REQUEST, invalid));
        }
        Errors error = groups.coordinatorError(request.groupId());
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(ShareGroupHeartbeats.error(error, error.message()));
        }
        return shareGroups.heartbeat(request, clientId, clientHost);
    }

    /**
     * ShareGroupDescribe v1 (KIP-932) of one group; see {@link ShareGroupDescriber}: GROUP_ID_NOT_FOUND
     * for an unknown group or one of another type, INVALID_GROUP_ID for an empty id.
     */
    public ShareGroupDescribeResponseData.DescribedGroup describeShareGroup(String groupId) {
        Errors error = GroupCoordinator.invalidGroupId(groupId) ? Errors.INVALID_GROUP_ID : groups.coordinatorError(groupId);
        return ShareGroupDescriber.describe(groupId, error, groups.group(groupId), topicNames, shareGroups.assignorName());
    }

    /**
     * Share groups' offsets (Describe/Alter/DeleteShareGroupOffsets, KIP-932) over {@code shareStates},
     * the share coordinator as this broker reaches it.
     */
    public ShareGroupOffsets shareGroupOffsets(ShareGroupStateClient shareStates, org.apache.kafka.common.utils.Time time) {
        return new ShareGroupOffsets(groups, topicNames, shareStates, time);
    }

    /** A group loaded by this coordinator: its members' sessions start now. */
    void onLoaded(ClassicGroup holder) {
        consumerGroups.onLoaded(holder);
        shareGroups.onLoaded(holder);
    }

    /** A group unloaded (another broker coordinates it now): its timers stop. */
    void onUnloaded(ClassicGroup holder) {
        synchronized (holder) {
            if (holder.consumerGroup() != null) {
                consumerGroups.forget(holder.consumerGroup());
            }
        }
        shareGroups.forget(holder);
    }
}
