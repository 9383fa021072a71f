package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link AnomalyKind#NON_MONOTONIC_READ}, in two forms: within one poll's records of a partition, an offset not above
 * the one before it; and across one consumer's polls, an offset of a partition read again within the same
 * {@link Poll#assignmentEpoch()} (a rebalance or a seek starts a new epoch, after which re-reading is legitimate).
 * Skipped offsets are not reported: compaction, transaction markers and aborted records leave gaps legitimately.
 * One anomaly per offending record.
 */
public final class NonMonotonicReadCheck implements HistoryCheck {

    private record EpochKey(String consumer, long epoch, TopicPartition partition) {
    }

    @Override
    public List<Anomaly> check(History history) {
        List<Anomaly> anomalies = new ArrayList<>();
        Map<EpochKey, Set<Long>> readInEpoch = new HashMap<>();
        for (Poll poll : history.polls()) {
            Map<TopicPartition, Long> lastInPoll = new HashMap<>();
            for (ConsumedRecord read : poll.records()) {
                Long previous = lastInPoll.put(read.partition(), read.offset());
                if (previous != null && read.offset() <= previous) {
                    anomalies.add(new Anomaly(AnomalyKind.NON_MONOTONIC_READ, "a poll of " + poll.client()
                            + " returned offset " + read.offset() + " of " + read.partition() + " after offset "
                            + previous));
                    continue;
                }
                var key = new EpochKey(poll.client(), poll.assignmentEpoch(), read.partition());
                if (!readInEpoch.computeIfAbsent(key, k -> new HashSet<>()).add(read.offset())) {
                    anomalies.add(new Anomaly(AnomalyKind.NON_MONOTONIC_READ, poll.client() + " read offset "
                            + read.offset() + " of " + read.partition() + " twice in assignment epoch "
                            + poll.assignmentEpoch()));
                }
            }
        }
        return anomalies;
    }
}
