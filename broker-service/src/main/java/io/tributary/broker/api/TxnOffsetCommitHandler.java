package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.group.TransactionVerifier;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
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
 * TxnOffsetCommit (v0-4, KIP-98, KIP-447 and KIP-890 part 1; {@code sendOffsetsToTransaction}): the
 * group coordinator has the transaction verified (the group's offsets partition must be in it, as
 * AddOffsetsToTxn put it there; {@link TxnOffsetCommitVerification}, unless
 * {@code transaction.partition.verification.enable} is off), then writes the offsets as the
 * producer's transactional batch, pending until the transaction's marker
 * ({@link GroupCoordinator#commitTransactionalOffsets}). A commit whose partition is not in the
 * transaction gets TRANSACTION_ABORTABLE (v4+) or INVALID_TXN_STATE and writes nothing. Needs WRITE
 * on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), READ on the group
 * (GROUP_AUTHORIZATION_FAILED) and READ on each topic (TOPIC_AUTHORIZATION_FAILED for its
 * partitions), as Kafka checks them. A member epoch the coordinator refuses (KIP-848, KIP-1251) is answered
 * ILLEGAL_GENERATION: STALE_MEMBER_EPOCH only from v6, as Kafka. Version 5 belongs to KIP-890's transaction version 2, which is
 * not served.
 *
 * <p>Runs on a request handler thread.
 */
public final class TxnOffsetCommitHandler extends VersionedHandler {

    private final GroupCoordinator groupCoordinator;
    private final BrokerAuthorizer authorizer;
    private final IntFunction<TransactionVerifier> verifierForVersion;

    /**
     * @param verifierForVersion the verification for a request of a version, or
     *                           {@link TransactionVerifier#DISABLED} for every version
     */
    public TxnOffsetCommitHandler(GroupCoordinator groupCoordinator, BrokerAuthorizer authorizer,
                                  IntFunction<TransactionVerifier> verifierForVersion) {
        super(ApiKeys.TXN_OFFSET_COMMIT, 0, 4);
        this.groupCoordinator = groupCoordinator;
        this.authorizer = authorizer;
        this.verifierForVersion = verifierForVersion;
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
                data.transactionalId(), data.producerId(), data.producerEpoch(), data.generationIdOrMemberEpoch(),
                data.memberId(), data.groupInstanceId(), commits), verifierForVersion.apply(r.version()))
            .thenApply(results -> {
                Map<TopicPartition, Errors> errors = new LinkedHashMap<>(refused);
                // Kafka: STALE_MEMBER_EPOCH only from v6 (TxnOffsetCommitRequest.supportsStaleMemberEpochError).
                results.forEach((tp, e) -> errors.put(tp, e == Errors.STALE_MEMBER_EPOCH
                    && !TxnOffsetCommitRequest.supportsStaleMemberEpochError(r.version()) ? Errors.ILLEGAL_GENERATION : e));
                return Responses.of(context, new TxnOffsetCommitResponse(0, errors));
            });
    }
}
