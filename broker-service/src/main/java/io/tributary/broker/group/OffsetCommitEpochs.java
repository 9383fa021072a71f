package io.tributary.broker.group;

import java.util.Collection;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the member epoch of an OffsetCommit or TxnOffsetCommit to a consumer group (KIP-848) as Kafka
 * 4.4's {@code ConsumerGroup.validateOffsetCommit} with KIP-1251 assignment epochs:
 * <ul>
 *   <li>a member epoch below 0 with the group empty is accepted (an admin's or a manual commit);</li>
 *   <li>an unknown member gets UNKNOWN_MEMBER_ID; a member of the consumer protocol committing with
 *       OffsetCommit below v9 gets UNSUPPORTED_VERSION;</li>
 *   <li>the member's current epoch is accepted; a newer one gets STALE_MEMBER_EPOCH;</li>
 *   <li>an older one is accepted only if every partition committed is assigned to the member, or
 *       pending revocation from it, since an epoch at or below the request's
 *       ({@link ConsumerGroupMember#assignmentEpoch}); otherwise STALE_MEMBER_EPOCH. A commit sent just
 *       before the member's epoch was bumped, for partitions it keeps, therefore succeeds.</li>
 * </ul>
 * A member of the classic protocol (online migration) gets ILLEGAL_GENERATION instead of
 * STALE_MEMBER_EPOCH. As in Kafka, one refused partition refuses the whole commit: the caller
 * answers every partition with the error and writes nothing ({@code OffsetMetadataManager.commitOffset}
 * lets the validator's exception fail the request).
 *
 * <p>Stateless; the caller holds the group's monitor.
 */
final class OffsetCommitEpochs {

    /** {@code apiVersion} of a TxnOffsetCommit, which has no version floor for consumer-protocol members. */
    static final short TRANSACTIONAL = -1;

    private static final Logger log = LoggerFactory.getLogger(OffsetCommitEpochs.class);

    private OffsetCommitEpochs() {
    }

    /**
     * @param apiVersion  the OffsetCommit version, or {@link #TRANSACTIONAL}
     * @param partitions  the partitions committed
     * @param topicIds    a topic's id by name, when the topic exists
     * @return NONE, UNKNOWN_MEMBER_ID, UNSUPPORTED_VERSION, STALE_MEMBER_EPOCH or ILLEGAL_GENERATION
     */
    static Errors validate(ConsumerGroup group, String memberId, int memberEpoch, short apiVersion,
                           Collection<TopicPartition> partitions, Function<String, Optional<Uuid>> topicIds) {
        if (memberEpoch < 0 && group.members().isEmpty()) {
            return Errors.NONE;
        }
        ConsumerGroupMember member = memberId == null ? null : group.member(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        boolean classic = group.classicMember(memberId) != null;
        if (apiVersion != TRANSACTIONAL && !classic && apiVersion < 9) {
            // Kafka: "OffsetCommit version 9 or above must be used by members using the consumer group protocol".
            return Errors.UNSUPPORTED_VERSION;
        }
        Errors stale = classic ? Errors.ILLEGAL_GENERATION : Errors.STALE_MEMBER_EPOCH;
        if (memberEpoch == member.memberEpoch()) {
            return Errors.NONE;
        }
        if (memberEpoch > member.memberEpoch()) {
            log.debug("Group {}: received member epoch {} is newer than current member epoch {} of member {}.",
                group.groupId(), memberEpoch, member.memberEpoch(), memberId);
            return stale;
        }
        for (TopicPartition tp : partitions) {
            Uuid topicId = topicIds.apply(tp.topic()).orElse(null);
            Integer assignedAt = topicId == null ? null : member.assignmentEpoch(topicId, tp.partition());
            if (assignedAt == null && topicId != null) {
                assignedAt = member.pendingRevocationEpoch(topicId, tp.partition());
            }
            if (assignedAt == null) {
                log.debug("Group {}: partition {} is not assigned or pending revocation for member {}.",
                    group.groupId(), tp, memberId);
                return stale;
            }
            if (memberEpoch < assignedAt) {
                log.debug("Group {}: received member epoch {} of member {} is older than assignment epoch {} for "
                    + "partition {}.", group.groupId(), memberEpoch, memberId, assignedAt, tp);
                return stale;
            }
        }
        return Errors.NONE;
    }
}
