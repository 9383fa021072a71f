package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the committed offsets of a deleted topic's partitions from the classic and KIP-848
 * consumer groups this broker coordinates, and writes their tombstones to
 * {@code __consumer_offsets}, so a restarted or new coordinator does not load them again (Kafka
 * 4.4's {@code GroupCoordinatorService#onPartitionsDeleted} and
 * {@code OffsetMetadataManager#onPartitionsDeleted}). Without it, OffsetFetch would answer offsets
 * of a topic that no longer exists, and tools asking their log end offsets would time out.
 *
 * <p>Only what is committed when the deletion is seen goes: the offsets are taken under each
 * group's monitor at that moment, and the tombstones are written under it, so a commit to a topic
 * of the same name created again afterwards is neither removed nor overwritten in the log. Unlike
 * Kafka, a commit still being written when the deletion is seen (pending) is kept when it lands, as
 * are transactional commits whose transaction is still open; offset expiry applies to them as usual.
 *
 * <p>Thread-safe; call it from a thread that may wait briefly on group monitors (the metadata
 * event thread), not from a network thread. The writes themselves are not waited for.
 */
public final class DeletedTopicOffsets {

    private static final Logger log = LoggerFactory.getLogger(DeletedTopicOffsets.class);

    private final GroupMetadataManager groups;

    DeletedTopicOffsets(GroupMetadataManager groups) {
        this.groups = groups;
    }

    /**
     * Removes every group's committed offsets of the deleted topic and writes their tombstones.
     *
     * @return completes when the tombstones are written (or their write failed, which is logged:
     *         the offsets stay removed here and the next coordinator may load them again)
     */
    public CompletableFuture<Void> onTopicDeleted(String topic) {
        List<CompletableFuture<Errors>> writes = new ArrayList<>();
        for (ClassicGroup group : groups.groups()) {
            synchronized (group) {
                if (group.is(GroupState.DEAD) || group.shareGroup() != null) {
                    continue; // a share group's state of the topic is ShareGroupOffsets' to delete
                }
                List<TopicPartition> deleted = new ArrayList<>();
                for (TopicPartition tp : List.copyOf(group.offsets().keySet())) {
                    if (tp.topic().equals(topic) && !group.hasPendingCommit(tp)) {
                        group.removeOffset(tp);
                        deleted.add(tp);
                    }
                }
                if (deleted.isEmpty()) {
                    continue;
                }
                log.info("Deleted {} committed offset(s) of deleted topic {} from group {}", deleted.size(), topic,
                    group.groupId());
                String groupId = group.groupId();
                // Under the group's monitor, so a later commit's record follows these tombstones.
                writes.add(groups.storeTombstones(groupId, deleted, false).whenComplete((error, e) -> {
                    if (e != null || error != Errors.NONE) {
                        log.warn("Could not write the tombstones of {} offset(s) of deleted topic {} for group {}: {}",
                            deleted.size(), topic, groupId, e != null ? e.toString() : error);
                    }
                }));
            }
        }
        return CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0]));
    }
}
