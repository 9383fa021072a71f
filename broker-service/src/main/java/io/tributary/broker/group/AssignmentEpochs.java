package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;

/**
 * Assignment epochs of KIP-848 members (KIP-1251): for each partition a member owns or is revoking,
 * the member epoch at which it was assigned to that member, {@code Map<topic id, Map<partition, epoch>>}.
 * A partition keeps its epoch while the member keeps it; a partition new to the member gets the epoch
 * the member moves to. They let an OffsetCommit sent with an older member epoch through when every
 * partition it commits was already the member's at that epoch ({@link OffsetCommitEpochs}).
 *
 * <p>Stored as Kafka does, in {@code ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions}: the tagged
 * field {@code AssignmentEpochs} (tag 0) parallel to {@code Partitions}; a record without it (or whose list
 * has another length) is read as every partition assigned at {@code max(memberEpoch, 0)}, as Kafka's
 * {@code Utils.assignmentFromTopicPartitions}. Stateless; every result is an unmodifiable copy.
 */
final class AssignmentEpochs {

    private AssignmentEpochs() {
    }

    /**
     * The epochs of exactly {@code partitions}: taken from {@code epochs}, {@code defaultEpoch} for a
     * partition it lacks.
     */
    static Map<Uuid, Map<Integer, Integer>> complete(Map<Uuid, Map<Integer, Integer>> epochs,
                                                     Map<Uuid, Set<Integer>> partitions, int defaultEpoch) {
        Map<Uuid, Map<Integer, Integer>> out = new HashMap<>();
        partitions.forEach((topic, ps) -> {
            Map<Integer, Integer> known = epochs.getOrDefault(topic, Map.of());
            Map<Integer, Integer> of = new TreeMap<>();
            ps.forEach(p -> of.put(p, known.getOrDefault(p, defaultEpoch)));
            out.put(topic, Collections.unmodifiableMap(of));
        });
        return Collections.unmodifiableMap(out);
    }

    /** The epochs of the partitions of {@code partitions} only. */
    static Map<Uuid, Map<Integer, Integer>> restrict(Map<Uuid, Map<Integer, Integer>> epochs,
                                                     Map<Uuid, Set<Integer>> partitions) {
        Map<Uuid, Map<Integer, Integer>> out = new HashMap<>();
        partitions.forEach((topic, ps) -> {
            Map<Integer, Integer> known = epochs.getOrDefault(topic, Map.of());
            Map<Integer, Integer> of = new TreeMap<>();
            ps.forEach(p -> {
                Integer epoch = known.get(p);
                if (epoch != null) {
                    of.put(p, epoch);
                }
            });
            out.put(topic, of);
        });
        return out;
    }

    /** The record's layout of {@code partitions}, with each partition's epoch (Kafka's {@code toTopicPartitions}). */
    static List<ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions> toRecord(Map<Uuid, Set<Integer>> partitions,
                                                                              Map<Uuid, Map<Integer, Integer>> epochs) {
        List<ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions> out = new ArrayList<>();
        partitions.forEach((topic, ps) -> {
            List<Integer> ordered = new ArrayList<>(ps);
            Map<Integer, Integer> of = epochs.getOrDefault(topic, Map.of());
            out.add(new ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions().setTopicId(topic)
                .setPartitions(ordered).setAssignmentEpochs(ordered.stream().map(of::get).toList()));
        });
        return out;
    }

    /**
     * The epochs stored in a record's partitions; a topic without epochs, or with a list of another
     * length than its partitions, is left out (so it takes the member's default).
     */
    static Map<Uuid, Map<Integer, Integer>> fromRecord(List<ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions> l) {
        Map<Uuid, Map<Integer, Integer>> out = new HashMap<>();
        for (ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions tp : l) {
            List<Integer> epochs = tp.assignmentEpochs();
            if (epochs != null && epochs.size() == tp.partitions().size()) {
                Map<Integer, Integer> of = out.computeIfAbsent(tp.topicId(), t -> new HashMap<>());
                for (int i = 0; i < epochs.size(); i++) {
                    of.put(tp.partitions().get(i), epochs.get(i));
                }
            }
        }
        return out;
    }
}
