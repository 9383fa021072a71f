package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.AlterShareGroupOffsetsRequestData;
import org.apache.kafka.common.message.AlterShareGroupOffsetsResponseData;
import org.apache.kafka.common.message.DeleteShareGroupOffsetsRequestData;
import org.apache.kafka.common.message.DeleteShareGroupOffsetsResponseData;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsRequestData.DescribeShareGroupOffsetsRequestGroup;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponseGroup;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponsePartition;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;

/**
 * Share groups' offsets (KIP-932) as Kafka 4.4's group coordinator serves them to the admin client
 * and {@code kafka-share-groups}: DescribeShareGroupOffsets reads each share-partition's start offset
 * (SPSO) from the share coordinator (ReadShareGroupStateSummary); AlterShareGroupOffsets initializes
 * the state again at the given start offsets in the next state epoch (InitializeShareGroupState);
 * DeleteShareGroupOffsets deletes the state of whole topics (DeleteShareGroupState), so a consumer
 * then starts from {@code share.auto.offset.reset}. Alter and delete need an empty group.
 *
 * <p>The partitions of a group ("all" in a describe, those whose state a deleted group leaves) are
 * the ones it was ever assigned or had its offsets altered for, kept in record type 15
 * ({@link ShareGroup#statePartitions()}), with its current target assignment.
 *
 * <p>Errors, as Kafka answers them: the coordinator's (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS)
 * and GROUP_ID_NOT_FOUND (no such group, or not a share group) for the whole group; NON_EMPTY_GROUP
 * for an alter or delete while members remain; per partition (per topic for a delete)
 * UNKNOWN_TOPIC_OR_PARTITION, TOPIC_AUTHORIZATION_FAILED, or the share coordinator's error.
 *
 * <p>Lag (DescribeShareGroupOffsets v1, KIP-1226), as Kafka 4.4's group coordinator computes it: the
 * partition's latest offset (high watermark, read from its leader) minus the start offset minus the
 * delivery complete count the share-partition leader last wrote; -1 when the share-partition has no start
 * offset or no count (state written by an older leader that did not send one). When the latest offset
 * cannot be read the partition is answered with that error, as Kafka does.
 *
 * <p>Thread-safe: a group is read under its monitor, the share coordinator is called outside it. An
 * alter or delete checks emptiness before its calls; a member joining meanwhile is not refused.
 */
public final class ShareGroupOffsets {

    private final GroupMetadataManager groups;
    private final GroupTopics topics;
    private final Time time;
    private final ShareGroupStateClient client;

    ShareGroupOffsets(GroupMetadataManager groups, GroupTopics topics, ShareGroupStateClient client, Time time) {
        this.groups = groups;
        this.topics = topics;
        this.client = client;
        this.time = time;
    }

    /** A share group as these requests see it: an error, or its state and partitions. */
    private record Found(Errors error, String message, boolean empty, Map<Uuid, Set<Integer>> partitions) {
    }

    /**
     * DescribeShareGroupOffsets (v0-1) of one group.
     *
     * @param mayDescribeTopic whether the client may DESCRIBE a topic: others are answered
     *                         TOPIC_AUTHORIZATION_FAILED when named, left out otherwise
     */
    public CompletableFuture<DescribeShareGroupOffsetsResponseGroup> describe(DescribeShareGroupOffsetsRequestGroup request,
                                                                             Predicate<String> mayDescribeTopic) {
        String groupId = request.groupId();
        DescribeShareGroupOffsetsResponseGroup response = new DescribeShareGroupOffsetsResponseGroup().setGroupId(groupId);
        Found found = find(groupId);
        if (found.error() != Errors.NONE) {
            return CompletableFuture.completedFuture(response.setErrorCode(found.error().code())
                .setErrorMessage(found.message()));
        }
        List<CompletableFuture<DescribeShareGroupOffsetsResponseTopic>> described = new ArrayList<>();
        if (request.topics() == null) {
            Map<String, Uuid> byName = new java.util.TreeMap<>();
            found.partitions().keySet().forEach(id -> topics.name(id).filter(mayDescribeTopic)
                .ifPresent(name -> byName.put(name, id)));
            byName.forEach((name, id) -> described.add(describeTopic(groupId, name, id,
                new TreeSet<>(found.partitions().get(id)), true)));
        } else {
            request.topics().forEach(t -> {
                Optional<GroupTopic> topic = topics.topic(t.topicName());
                Errors error = !mayDescribeTopic.test(t.topicName()) ? Errors.TOPIC_AUTHORIZATION_FAILED
                    : topic.isEmpty() ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.NONE;
                if (error != Errors.NONE) {
                    DescribeShareGroupOffsetsResponseTopic failed = new DescribeShareGroupOffsetsResponseTopic()
                        .setTopicName(t.topicName()).setTopicId(Uuid.ZERO_UUID);
                    t.partitions().forEach(p -> failed.partitions().add(partition(p).setErrorCode(error.code())
                        .setErrorMessage(error.message())));
                    described.add(CompletableFuture.completedFuture(failed));
                } else {
                    described.add(describeTopic(groupId, t.topicName(), topic.get().topicId(),
                        new TreeSet<>(t.partitions()), false));
                }
            });
        }
        return all(described).thenApply(ts -> {
            ts.stream().filter(t -> !t.partitions().isEmpty()).forEach(response.topics()::add);
            return response;
        });
    }

    private CompletableFuture<DescribeShareGroupOffsetsResponseTopic> describeTopic(String groupId, String name, Uuid id,
                                                                                   Set<Integer> partitions,
                                                                                   boolean initializedOnly) {
        int count = topics.topic(name).map(GroupTopic::partitions).orElse(0);
        List<CompletableFuture<Optional<DescribeShareGroupOffsetsResponsePartition>>> reads = new ArrayList<>();
        for (int p : partitions) {
            if (p < 0 || p >= count) {
                reads.add(CompletableFuture.completedFuture(initializedOnly ? Optional.empty() : Optional.of(partition(p)
                    .setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                    .setErrorMessage(Errors.UNKNOWN_TOPIC_OR_PARTITION.message()))));
                continue;
            }
            TopicIdPartition tip = new TopicIdPartition(id, p, name);
            reads.add(client.readSummary(groupId, tip).thenCompose(summary -> {
                if (initializedOnly && summary.error() == Errors.NONE && !summary.initialized()) {
                    return CompletableFuture.completedFuture(Optional.empty());
                }
                DescribeShareGroupOffsetsResponsePartition result = partition(p);
                if (summary.error() != Errors.NONE) {
                    return CompletableFuture.completedFuture(Optional.of(result.setErrorCode(summary.error().code())
                        .setErrorMessage(summary.error().message())));
                }
                if (summary.startOffset() == -1 || summary.deliveryCompleteCount() == -1) {
                    return CompletableFuture.completedFuture(Optional.of(result.setStartOffset(summary.startOffset())
                        .setLeaderEpoch(summary.leaderEpoch())));
                }
                return client.latestOffset(tip).thenApply(latest -> Optional.of(latest.error() != Errors.NONE
                    ? result.setErrorCode(latest.error().code()).setErrorMessage(latest.error().message())
                    : result.setStartOffset(summary.startOffset()).setLeaderEpoch(summary.leaderEpoch())
                        .setLag(lag(latest.offset(), summary.startOffset(), summary.deliveryCompleteCount()))));
            }));
        }
        return all(reads).thenApply(results -> new DescribeShareGroupOffsetsResponseTopic().setTopicName(name)
            .setTopicId(id).setPartitions(results.stream().flatMap(Optional::stream).toList()));
    }

    /**
     * Share-partition lag as Kafka 4.4 computes it (KIP-1226): the records from the share-partition start
     * offset to the partition's latest offset (high watermark) whose delivery is not complete, i.e.
     * {@code latestOffset - startOffset - deliveryCompleteCount}; not clamped (Kafka does not either).
     */
    static long lag(long latestOffset, long startOffset, int deliveryCompleteCount) {
        return latestOffset - startOffset - deliveryCompleteCount;
    }

    private static DescribeShareGroupOffsetsResponsePartition partition(int p) {
        return new DescribeShareGroupOffsetsResponsePartition().setPartitionIndex(p).setStartOffset(-1).setLeaderEpoch(-1)
            .setLag(-1);
    }

    /**
     * AlterShareGroupOffsets (v0): each named share-partition starts again at its start offset, in
     * the state epoch after its current one.
     *
     * @param mayReadTopic whether the client may READ a topic, else TOPIC_AUTHORIZATION_FAILED
     */
    public CompletableFuture<AlterShareGroupOffsetsResponseData> alter(AlterShareGroupOffsetsRequestData request,
                                                                      Predicate<String> mayReadTopic) {
        AlterShareGroupOffsetsResponseData response = new AlterShareGroupOffsetsResponseData();
        Found found = find(request.groupId());
        Errors refused = found.error() != Errors.NONE ? found.error() : found.empty() ? Errors.NONE : Errors.NON_EMPTY_GROUP;
        if (refused != Errors.NONE) {
            String message = refused == Errors.NON_EMPTY_GROUP
                ? "The group " + request.groupId() + " has active members; its offsets can be altered once it is empty."
                : found.message();
            return CompletableFuture.completedFuture(response.setErrorCode(refused.code()).setErrorMessage(message));
        }
        List<CompletableFuture<AlterShareGroupOffsetsResponseData.AlterShareGroupOffsetsResponseTopic>> altered =
            new ArrayList<>();
        for (AlterShareGroupOffsetsRequestData.AlterShareGroupOffsetsRequestTopic t : request.topics()) {
            Optional<GroupTopic> topic = topics.topic(t.topicName());
            Errors topicError = !mayReadTopic.test(t.topicName()) ? Errors.TOPIC_AUTHORIZATION_FAILED
                : topic.isEmpty() ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.NONE;
            Uuid id = topic.map(GroupTopic::topicId).orElse(Uuid.ZERO_UUID);
            List<CompletableFuture<AlterShareGroupOffsetsResponseData.AlterShareGroupOffsetsResponsePartition>> parts =
                new ArrayList<>();
            for (AlterShareGroupOffsetsRequestData.AlterShareGroupOffsetsRequestPartition p : t.partitions()) {
                Errors error = topicError == Errors.NONE && (p.partitionIndex() < 0
                    || p.partitionIndex() >= topic.get().partitions()) ? Errors.UNKNOWN_TOPIC_OR_PARTITION : topicError;
                CompletableFuture<Errors> outcome = error != Errors.NONE ? CompletableFuture.completedFuture(error)
                    : reset(request.groupId(), new TopicIdPartition(id, p.partitionIndex(), t.topicName()), p.startOffset());
                parts.add(outcome.thenApply(e -> new AlterShareGroupOffsetsResponseData.AlterShareGroupOffsetsResponsePartition()
                    .setPartitionIndex(p.partitionIndex()).setErrorCode(e.code())
                    .setErrorMessage(e == Errors.NONE ? null : e.message())));
            }
            altered.add(all(parts).thenApply(ps -> new AlterShareGroupOffsetsResponseData.AlterShareGroupOffsetsResponseTopic()
                .setTopicName(t.topicName()).setTopicId(id).setPartitions(ps)));
        }
        return all(altered).thenApply(ts -> {
            ts.forEach(response.responses()::add);
            return response;
        });
    }

    private CompletableFuture<Errors> reset(String groupId, TopicIdPartition tp, long startOffset) {
        return client.readSummary(groupId, tp).thenCompose(summary -> summary.error() != Errors.NONE
            ? CompletableFuture.completedFuture(summary.error())
            : client.initialize(groupId, tp, summary.stateEpoch() + 1, startOffset).thenCompose(error -> error != Errors.NONE
                ? CompletableFuture.completedFuture(error)
                : changeStatePartitions(groupId, partitions -> partitions.computeIfAbsent(tp.topicId(),
                    t -> new TreeSet<>()).add(tp.partition()))));
    }

    /**
     * DeleteShareGroupOffsets (v0): the state of every partition of each named topic is deleted.
     *
     * @param mayReadTopic whether the client may READ a topic, else TOPIC_AUTHORIZATION_FAILED
     */
    public CompletableFuture<DeleteShareGroupOffsetsResponseData> delete(DeleteShareGroupOffsetsRequestData request,
                                                                        Predicate<String> mayReadTopic) {
        DeleteShareGroupOffsetsResponseData response = new DeleteShareGroupOffsetsResponseData();
        Found found = find(request.groupId());
        Errors refused = found.error() != Errors.NONE ? found.error() : found.empty() ? Errors.NONE : Errors.NON_EMPTY_GROUP;
        if (refused != Errors.NONE) {
            String message = refused == Errors.NON_EMPTY_GROUP
                ? "The group " + request.groupId() + " has active members; its offsets can be deleted once it is empty."
                : found.message();
            return CompletableFuture.completedFuture(response.setErrorCode(refused.code()).setErrorMessage(message));
        }
        List<CompletableFuture<DeleteShareGroupOffsetsResponseData.DeleteShareGroupOffsetsResponseTopic>> deleted =
            new ArrayList<>();
        for (DeleteShareGroupOffsetsRequestData.DeleteShareGroupOffsetsRequestTopic t : request.topics()) {
            Optional<GroupTopic> topic = topics.topic(t.topicName());
            Errors topicError = !mayReadTopic.test(t.topicName()) ? Errors.TOPIC_AUTHORIZATION_FAILED
                : topic.isEmpty() ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.NONE;
            Uuid id = topic.map(GroupTopic::topicId).orElse(Uuid.ZERO_UUID);
            CompletableFuture<Errors> outcome = topicError != Errors.NONE ? CompletableFuture.completedFuture(topicError)
                : deleteTopic(request.groupId(), t.topicName(), topic.get());
            deleted.add(outcome.thenApply(e -> new DeleteShareGroupOffsetsResponseData.DeleteShareGroupOffsetsResponseTopic()
                .setTopicName(t.topicName()).setTopicId(id).setErrorCode(e.code())
                .setErrorMessage(e == Errors.NONE ? null : e.message())));
        }
        return all(deleted).thenApply(ts -> {
            ts.forEach(response.responses()::add);
            return response;
        });
    }

    private CompletableFuture<Errors> deleteTopic(String groupId, String name, GroupTopic topic) {
        List<CompletableFuture<Errors>> deletes = new ArrayList<>();
        for (int p = 0; p < topic.partitions(); p++) {
            deletes.add(client.delete(groupId, new TopicIdPartition(topic.topicId(), p, name)));
        }
        return all(deletes).thenCompose(errors -> {
            Errors first = errors.stream().filter(e -> e != Errors.NONE).findFirst().orElse(Errors.NONE);
            return first != Errors.NONE ? CompletableFuture.completedFuture(first)
                : changeStatePartitions(groupId, partitions -> partitions.remove(topic.topicId()));
        });
    }

    /**
     * Deletes the share coordinator state of every partition {@code groupId} has state for (DeleteGroups
     * of an empty share group, before the group itself goes, as Kafka 4.4 does).
     *
     * @return NONE, or the first share coordinator error (the group is then kept)
     */
    public CompletableFuture<Errors> deleteGroupState(String groupId) {
        Found found = find(groupId);
        if (found.error() != Errors.NONE || !found.empty()) {
            return CompletableFuture.completedFuture(Errors.NONE); // not an empty share group: DeleteGroups answers
        }
        List<CompletableFuture<Errors>> deletes = new ArrayList<>();
        found.partitions().forEach((id, ps) -> {
            String name = topics.name(id).orElse("");
            ps.forEach(p -> deletes.add(client.delete(groupId, new TopicIdPartition(id, p, name))));
        });
        return all(deletes).thenApply(errors -> errors.stream().filter(e -> e != Errors.NONE).findFirst()
            .orElse(Errors.NONE));
    }

    /**
     * Topics were deleted: every share group this coordinator serves deletes its share state of the
     * partitions of topics the metadata no longer knows (by id) and forgets them (record type 15), as
     * Kafka 4.4's group coordinator does when partitions are deleted. A share coordinator error leaves
     * the partitions to the next deletion.
     *
     * @return completes once every deletion is done
     */
    public CompletableFuture<Void> onTopicsDeleted() {
        List<CompletableFuture<Errors>> done = new ArrayList<>();
        for (ClassicGroup holder : groups.groups()) {
            Map<Uuid, Set<Integer>> gone = new HashMap<>();
            synchronized (holder) {
                ShareGroup group = holder.shareGroup();
                if (group == null || holder.is(GroupState.DEAD)) {
                    continue;
                }
                group.statePartitions().forEach((id, ps) -> {
                    if (topics.name(id).isEmpty()) {
                        gone.put(id, ps);
                    }
                });
            }
            String groupId = holder.groupId();
            gone.forEach((id, ps) -> {
                List<CompletableFuture<Errors>> deletes = new ArrayList<>();
                ps.forEach(p -> deletes.add(client.delete(groupId, new TopicIdPartition(id, p, ""))));
                done.add(all(deletes).thenCompose(errors -> errors.stream().allMatch(e -> e == Errors.NONE)
                    ? changeStatePartitions(groupId, partitions -> partitions.remove(id))
                    : CompletableFuture.completedFuture(Errors.NONE)));
            });
        }
        return CompletableFuture.allOf(done.toArray(new CompletableFuture<?>[0]));
    }

    private Found find(String groupId) {
        if (GroupCoordinator.invalidGroupId(groupId)) {
            return new Found(Errors.INVALID_GROUP_ID, "The group id is empty.", false, Map.of());
        }
        Errors error = groups.coordinatorError(groupId);
        if (error != Errors.NONE) {
            return new Found(error, error.message(), false, Map.of());
        }
        ClassicGroup holder = groups.group(groupId);
        if (holder == null) {
            return new Found(Errors.GROUP_ID_NOT_FOUND, "Group " + groupId + " not found.", false, Map.of());
        }
        synchronized (holder) {
            ShareGroup group = holder.shareGroup();
            if (group == null || holder.is(GroupState.DEAD)) {
                return new Found(Errors.GROUP_ID_NOT_FOUND, "Group " + groupId + " is not a share group.", false, Map.of());
            }
            return new Found(Errors.NONE, null, group.state() == ShareGroup.State.EMPTY, group.statePartitionsWithTarget());
        }
    }

    /** Changes the group's state partitions and writes them (record type 15), unless they stay the same. */
    private CompletableFuture<Errors> changeStatePartitions(String groupId, Consumer<Map<Uuid, Set<Integer>>> change) {
        ClassicGroup holder = groups.group(groupId);
        if (holder == null) {
            return CompletableFuture.completedFuture(Errors.NONE);
        }
        synchronized (holder) {
            ShareGroup group = holder.shareGroup();
            if (group == null || holder.is(GroupState.DEAD)) {
                return CompletableFuture.completedFuture(Errors.NONE);
            }
            Map<Uuid, Set<Integer>> partitions = new HashMap<>();
            group.statePartitions().forEach((topic, ps) -> partitions.put(topic, new TreeSet<>(ps)));
            change.accept(partitions);
            if (partitions.equals(group.statePartitions())) {
                return CompletableFuture.completedFuture(Errors.NONE);
            }
            holder.shareGroup(group.withStatePartitions(partitions));
            return groups.storeConsumerGroupRecords(groupId, List.of(ShareGroupRecords.statePartitions(groupId,
                partitions, id -> topics.name(id).orElse(""), time.milliseconds())));
        }
    }

    private static <R> CompletableFuture<List<R>> all(List<CompletableFuture<R>> calls) {
        return CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0]))
            .thenApply(done -> calls.stream().map(CompletableFuture::join).toList());
    }
}
