package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.TxnOffsetCommitRequest;
import org.apache.kafka.common.requests.TxnOffsetCommitResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * TxnOffsetCommit (v0-3, KIP-98 and KIP-447; {@code sendOffsetsToTransaction}): the group
 * coordinator writes the offsets as the producer's transactional batch, pending until the
 * transaction's marker ({@link GroupCoordinator#commitTransactionalOffsets}). Needs WRITE on the
 * transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), READ on the group
 * (GROUP_AUTHORIZATION_FAILED) and READ on each topic (TOPIC_AUTHORIZATION_FAILED for its
 * partitions), as Kafka checks them. Versions 4 and up belong to KIP-890's transaction version 2,
 * which is not served.
 *
 * <p>Runs on a request handler thread.
 */
public final class TxnOffsetCommitHandler extends VersionedHandler {

    private final GroupCoordinator groupCoordinator;
    private final BrokerAuthorizer authorizer;

    public TxnOffsetCommitHandler(GroupCoordinator groupCoordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.TXN_OFFSET_COMMIT, 0, 3);
        this.groupCoordinator = groupCoordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        TxnOffsetCommitRequestData data = ((TxnOffsetCommitRequest) r).data();
        Map<TopicPartition, Errors> refused = new LinkedHashMap<>();
        Errors all = !authorizer.authorize(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID,
            data.transactionalId()) ? Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
            : !authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, data.groupId())
                ? Errors.GROUP_AUTHORIZATION_FAILED : Errors.NONE;
        Set<String> readable = authorizer.filter(context, AclOperation.READ, ResourceType.TOPIC,
            data.topics().stream().map(TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic::name).toList());
        Map<TopicPartition, GroupCoordinator.CommitRequest> commits = new LinkedHashMap<>();
        for (TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic topic : data.topics()) {
            for (TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition p : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), p.partitionIndex());
                if (all != Errors.NONE) {
                    refused.put(tp, all);
                } else if (!readable.contains(topic.name())) {
                    refused.put(tp, Errors.TOPIC_AUTHORIZATION_FAILED);
                } else {
                    commits.put(tp, new GroupCoordinator.CommitRequest(p.committedOffset(), p.committedLeaderEpoch(),
                        p.committedMetadata()));
                }
            }
        }
        if (commits.isEmpty()) {
            return Responses.completed(context, new TxnOffsetCommitResponse(0, refused));
        }
        return groupCoordinator.commitTransactionalOffsets(new GroupCoordinator.TxnOffsetCommit(data.groupId(),
                data.producerId(), data.producerEpoch(), data.generationIdOrMemberEpoch(), data.memberId(),
                data.groupInstanceId(), commits))
            .thenApply(results -> {
                Map<TopicPartition, Errors> errors = new LinkedHashMap<>(refused);
                errors.putAll(results);
                return Responses.of(context, new TxnOffsetCommitResponse(0, errors));
            });
    }
}
