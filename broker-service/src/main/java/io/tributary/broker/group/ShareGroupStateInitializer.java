package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group coordinator's initialization of share-partition state (KIP-932, as Kafka 4.4's group
 * coordinator does it): when a share group's members subscribe to topics whose partitions have no
 * state for the group yet, a heartbeat marks them initializing in record type 15 and, once its
 * records are written, sends InitializeShareGroupState for them to the share coordinator in the
 * group's epoch, with start offset -1 for a topic new to the group (its leader then starts at
 * {@code share.auto.offset.reset}) and 0 for new partitions of a topic the group already has. The
 * answers move them to initialized (or, failed, back to neither; a later heartbeat tries again), in
 * a new record 15. Only initialized partitions are assigned to members, so share-partition leaders
 * read state the coordinator created. Partitions initializing for longer than
 * {@value #RETRY_INTERVAL_MS} ms (Kafka's default {@code group.share.initialize.retry.interval.ms})
 * are initialized again.
 *
 * <p>Without a share coordinator ({@link ShareGroupStateClient#NONE}: unit tests, brokers without
 * share groups) it does nothing and every subscribed partition is assignable, as before.
 *
 * <p>Thread-safety: a group's initializing partitions are read and changed holding the monitor of its
 * {@link ClassicGroup} holder; the share coordinator is called outside it.
 */
final class ShareGroupStateInitializer {

    private static final Logger log = LoggerFactory.getLogger(ShareGroupStateInitializer.class);

    /** Kafka's default {@code group.share.initialize.retry.interval.ms}. */
    static final long RETRY_INTERVAL_MS = 30_000;
    /** The start offset that tells a share-partition leader to apply {@code share.auto.offset.reset}. */
    static final long UNINITIALIZED_START_OFFSET = -1;

    /** Partitions of one topic being initialized, since when (ms). */
    private record Initializing(Set<Integer> partitions, long sinceMs) {
    }

    /**
     * The InitializeShareGroupState calls a heartbeat leads to, sent once its records are written.
     *
     * @param partitions   the partitions to initialize, by topic id
     * @param startOffsets the start offset of each topic's partitions (-1 or 0)
     */
    record Request(String groupId, int stateEpoch, Map<Uuid, Set<Integer>> partitions, Map<Uuid, Long> startOffsets) {
    }

    private final GroupMetadataManager groups;
    private final GroupTopics topics;
    private final ShareGroupStateClient states;
    private final Time time;
    private final ConcurrentMap<String, Map<Uuid, Initializing>> initializing = new ConcurrentHashMap<>();

    ShareGroupStateInitializer(GroupMetadataManager groups, GroupTopics topics, ShareGroupStateClient states, Time time) {
        this.groups = groups;
        this.topics = topics;
        this.states = states;
        this.time = time;
    }

    /** Whether state is initialized by the coordinator (there is a share coordinator to call). */
    boolean enabled() {
        return states != ShareGroupStateClient.NONE;
    }

    /**
     * The partitions of {@code subscribed} the assignor may give members: the initialized ones, or
     * all of them without a share coordinator. Holding the group's monitor.
     */
    Map<Uuid, Set<Integer>> assignable(ShareGroup group, Map<String, GroupTopic> subscribed) {
        Map<Uuid, Set<Integer>> assignable = new HashMap<>();
        for (GroupTopic topic : subscribed.values()) {
            Set<Integer> partitions = new TreeSet<>();
            for (int p = 0; p < topic.partitions(); p++) {
                if (!enabled() || group.statePartitions().getOrDefault(topic.topicId(), Set.of()).contains(p)) {
                    partitions.add(p);
                }
            }
            assignable.put(topic.topicId(), partitions);
        }
        return assignable;
    }

    /**
     * Whether partitions initialized since the target assignment was computed wait to be assigned
     * (Kafka's {@code initializedAssignmentPending}): the target must be computed again. Holding the group's monitor.
     */
    boolean assignmentPending(ShareGroup group, Map<String, GroupTopic> subscribed) {
        if (!enabled() || group.members().isEmpty()) {
            return false;
        }
        Map<Uuid, Set<Integer>> targeted = new HashMap<>();
        group.targetAssignment().values().forEach(target -> target.forEach((topic, ps) ->
            targeted.computeIfAbsent(topic, t -> new TreeSet<>()).addAll(ps)));
        Map<Uuid, Set<Integer>> assignable = assignable(group, subscribed);
        for (Map.Entry<Uuid, Set<Integer>> e : assignable.entrySet()) {
            if (!e.getValue().isEmpty() && !e.getValue().equals(targeted.getOrDefault(e.getKey(), Set.of()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Marks the partitions of {@code subscribed} that have no state for the group (neither initialized
     * nor initializing, or initializing for too long) as initializing, adding the record saying so to
     * {@code records}. Holding the group's monitor.
     *
     * @return the calls to make once {@code records} are written, or null for none
     */
    Request plan(ShareGroup group, Map<String, GroupTopic> subscribed, long nowMs, List<SimpleRecord> records) {
        if (!enabled() || group.members().isEmpty()) {
            return null;
        }
        String groupId = group.groupId();
        Map<Uuid, Initializing> current = new HashMap<>(initializing.getOrDefault(groupId, Map.of()));
        Map<Uuid, Set<Integer>> toInitialize = new HashMap<>();
        Map<Uuid, Long> startOffsets = new HashMap<>();
        for (GroupTopic topic : subscribed.values()) {
            Uuid id = topic.topicId();
            Initializing pending = current.get(id);
            boolean stale = pending != null && nowMs - pending.sinceMs() >= RETRY_INTERVAL_MS;
            Set<Integer> missing = new TreeSet<>();
            for (int p = 0; p < topic.partitions(); p++) {
                if (!group.statePartitions().getOrDefault(id, Set.of()).contains(p)
                        && (pending == null || stale || !pending.partitions().contains(p))) {
                    missing.add(p);
                }
            }
            if (missing.isEmpty()) {
                continue;
            }
            toInitialize.put(id, missing);
            // A topic the group already has state for gets its new partitions from their start, as Kafka's.
            boolean known = group.statePartitions().containsKey(id) || pending != null;
            startOffsets.put(id, known ? 0L : UNINITIALIZED_START_OFFSET);
            Set<Integer> all = new TreeSet<>(missing);
            if (pending != null && !stale) {
                all.addAll(pending.partitions());
            }
            current.put(id, new Initializing(all, nowMs));
        }
        if (toInitialize.isEmpty()) {
            return null;
        }
        initializing.put(groupId, Map.copyOf(current));
        records.add(record(group, nowMs));
        return new Request(groupId, group.groupEpoch(), toInitialize, startOffsets);
    }

    /**
     * Sends a heartbeat's InitializeShareGroupState calls (its records are written) and records their
     * outcome (record type 15). Never blocks.
     *
     * @return completes once the outcome is written
     */
    CompletableFuture<Void> initialize(Request request) {
        List<CompletableFuture<Map.Entry<TopicIdPartition, Errors>>> calls = new ArrayList<>();
        request.partitions().forEach((id, ps) -> {
            String name = topics.name(id).orElse("");
            long startOffset = request.startOffsets().get(id);
            for (int p : ps) {
                TopicIdPartition tip = new TopicIdPartition(id, p, name);
                calls.add(states.initialize(request.groupId(), tip, request.stateEpoch(), startOffset)
                    .thenApply(error -> Map.entry(tip, error)));
            }
        });
        return CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0])).thenCompose(done -> {
            Map<Uuid, Set<Integer>> succeeded = new HashMap<>();
            for (CompletableFuture<Map.Entry<TopicIdPartition, Errors>> call : calls) {
                Map.Entry<TopicIdPartition, Errors> outcome = call.join();
                if (outcome.getValue() == Errors.NONE) {
                    succeeded.computeIfAbsent(outcome.getKey().topicId(), t -> new TreeSet<>())
                        .add(outcome.getKey().partition());
                } else {
                    log.warn("Could not initialize the state of share-partition {} of group {}: {}", outcome.getKey(),
                        request.groupId(), outcome.getValue());
                }
            }
            return completed(request, succeeded);
        });
    }

    /** Moves a request's partitions out of initializing, the succeeded ones into initialized, and writes it. */
    private CompletableFuture<Void> completed(Request request, Map<Uuid, Set<Integer>> succeeded) {
        ClassicGroup holder = groups.group(request.groupId());
        if (holder == null) {
            initializing.remove(request.groupId());
            return CompletableFuture.completedFuture(null);
        }
        synchronized (holder) {
            ShareGroup group = holder.shareGroup();
            if (group == null || holder.is(GroupState.DEAD) || groups.group(request.groupId()) != holder) {
                initializing.remove(request.groupId());
                return CompletableFuture.completedFuture(null);
            }
            Map<Uuid, Initializing> current = new HashMap<>(initializing.getOrDefault(request.groupId(), Map.of()));
            request.partitions().forEach((id, ps) -> {
                Initializing pending = current.get(id);
                if (pending != null) {
                    Set<Integer> rest = new TreeSet<>(pending.partitions());
                    rest.removeAll(ps);
                    if (rest.isEmpty()) {
                        current.remove(id);
                    } else {
                        current.put(id, new Initializing(rest, pending.sinceMs()));
                    }
                }
            });
            initializing.put(request.groupId(), Map.copyOf(current));
            group = group.withStatePartitions(Assignments.union(group.statePartitions(), succeeded));
            holder.shareGroup(group);
            return groups.storeConsumerGroupRecords(request.groupId(), List.of(record(group, time.milliseconds())))
                .thenAccept(error -> {
                    if (error != Errors.NONE) {
                        log.warn("Could not write the initialized share-partitions of group {}: {}", request.groupId(),
                            error);
                    }
                });
        }
    }

    /** Record type 15 of {@code group} with its initializing partitions. Holding the group's monitor. */
    private SimpleRecord record(ShareGroup group, long nowMs) {
        Map<Uuid, Set<Integer>> pending = new HashMap<>();
        initializing.getOrDefault(group.groupId(), Map.of()).forEach((id, i) -> pending.put(id, i.partitions()));
        return ShareGroupRecords.statePartitions(group.groupId(), group.statePartitions(), pending,
            id -> topics.name(id).orElse(""), nowMs);
    }

    /** Forgets a group's initializing partitions (the group was unloaded or deleted). */
    void forget(String groupId) {
        initializing.remove(groupId);
    }
}
