package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link AnomalyKind#SKIPPED_BY_GROUP}: a record of the final reads below a group's highest OK committed offset of
 * its partition that no member of the group ever returned from a poll. A group commits only what its members read
 * (at-least-once consumption), so such a record was skipped: a commit past unread records, or a position that jumped
 * after a rebalance or a leader change. Indeterminate and failed commits are ignored; polls of consumers without a
 * group (assigned partitions) do not count for any group.
 */
public final class GroupSkipCheck implements HistoryCheck {

    private record GroupPartition(String group, TopicPartition partition) {
    }

    private record GroupOffset(String group, TopicPartition partition, long offset) {
    }

    @Override
    public List<Anomaly> check(History history) {
        Map<GroupPartition, Long> committed = new HashMap<>();
        for (Commit commit : history.commits()) {
            if (commit.outcome() == Outcome.OK) {
                committed.merge(new GroupPartition(commit.group(), commit.partition()), commit.offset(), Math::max);
            }
        }
        Set<GroupOffset> read = new HashSet<>();
        for (Poll poll : history.polls()) {
            poll.group().ifPresent(group -> poll.records().forEach(
                    r -> read.add(new GroupOffset(group, r.partition(), r.offset()))));
        }
        List<Anomaly> skipped = new ArrayList<>();
        committed.forEach((key, offset) -> {
            for (ConsumedRecord record : history.finalReads().records()) {
                if (record.partition().equals(key.partition()) && record.offset() < offset
                        && !read.contains(new GroupOffset(key.group(), record.partition(), record.offset()))) {
                    skipped.add(new Anomaly(AnomalyKind.SKIPPED_BY_GROUP, "group " + key.group() + " committed "
                            + offset + " for " + key.partition() + " but none of its members read offset "
                            + record.offset() + " (" + record.value() + ")"));
                }
            }
        });
        return skipped;
    }
}
