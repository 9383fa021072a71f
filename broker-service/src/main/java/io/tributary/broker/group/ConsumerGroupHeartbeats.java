package io.tributary.broker.group;

import com.google.re2j.PatternSyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ConsumerGroupHeartbeat (KIP-848): the one request of the new consumer rebalance protocol. A
 * member joins with epoch 0 and its subscription, heartbeats with its epoch (and, when they
 * changed, its subscription and owned partitions), and leaves with epoch -1 (-2: a static member
 * leaving for a while). Each heartbeat may bump the group epoch (a member joined, left or changed
 * its subscription; a subscribed topic appeared or grew), which computes a new target assignment
 * with the group's server-side assignor ({@code uniform} or {@code range},
 * {@code group.consumer.assignors}); then the member takes its next reconciliation step and gets its
 * epoch and, when it changed, its assignment.
 *
 * <p>Timers, as Kafka's: a member without a heartbeat for {@code group.consumer.session.timeout.ms}
 * is removed (its partitions go to others); one that does not revoke partitions within its
 * rebalance timeout is fenced. Errors, as Kafka answers them: UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH
 * (a stale epoch: the client rejoins), UNRELEASED_INSTANCE_ID, UNSUPPORTED_ASSIGNOR,
 * INVALID_REGULAR_EXPRESSION, INVALID_REQUEST, GROUP_MAX_SIZE_REACHED, GROUP_ID_NOT_FOUND (a classic
 * group with members that {@link GroupMigration} cannot upgrade). A joining member upgrades a classic
 * group online, and the last member leaving a group of classic members downgrades it ({@link GroupMigration}).
 *
 * <p>Every change is written to {@code __consumer_offsets} in Kafka's record layouts
 * ({@link ConsumerGroupRecords}) before the heartbeat is answered, so a new coordinator (after a
 * leader move or a restart) loads the group and its members go on with their epochs.
 *
 * <p>Thread-safety: each group's changes hold the monitor of its {@link ClassicGroup} holder;
 * timers run on the coordinator's timer thread and take the same monitor.
 */
final class ConsumerGroupHeartbeats {

    private static final Logger log = LoggerFactory.getLogger(ConsumerGroupHeartbeats.class);

    /**
     * Settings of KIP-848 groups (Kafka's {@code group.consumer.*}).
     *
     * @param sessionTimeoutMs    {@code group.consumer.session.timeout.ms}
     * @param heartbeatIntervalMs {@code group.consumer.heartbeat.interval.ms}
     * @param maxSize             {@code group.consumer.max.size}
     * @param assignors           {@code group.consumer.assignors}, by name; the first is the default
     * @param groupConfigs        the groups' own configs (KIP-848 group configs)
     * @param migrationPolicy     {@code group.consumer.migration.policy}
     */
    record Config(int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize,
                  java.util.LinkedHashMap<String, ConsumerGroupPartitionAssignor> assignors,
                  GroupConfigLookup groupConfigs, ConsumerGroupMigrationPolicy migrationPolicy) {

        Config(int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize,
               java.util.LinkedHashMap<String, ConsumerGroupPartitionAssignor> assignors, GroupConfigLookup groupConfigs) {
            this(sessionTimeoutMs, heartbeatIntervalMs, maxSize, assignors, groupConfigs,
                ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        }

        /** These settings with {@code group.consumer.migration.policy} {@code policy}. */
        Config withMigrationPolicy(ConsumerGroupMigrationPolicy policy) {
            return new Config(sessionTimeoutMs, heartbeatIntervalMs, maxSize, assignors, groupConfigs, policy);
        }

        /** Kafka's defaults: 45 s sessions, 5 s heartbeats, no size limit, uniform then range. */
        static Config defaults() {
            java.util.LinkedHashMap<String, ConsumerGroupPartitionAssignor> assignors = new java.util.LinkedHashMap<>();
            for (ConsumerGroupPartitionAssignor a : List.of(new org.apache.kafka.coordinator.group.assignor.UniformAssignor(),
                    new org.apache.kafka.coordinator.group.assignor.RangeAssignor())) {
                assignors.put(a.name(), a);
            }
            return new Config(45_000, 5_000, Integer.MAX_VALUE, assignors, GroupConfigLookup.NONE);
        }

        /** The group's {@code consumer.session.timeout.ms} when set (KIP-848 group configs), else the broker's. */
        int sessionTimeoutMs(String groupId) {
            return groupConfigs.groupConfig(groupId)
                .flatMap(org.apache.kafka.coordinator.group.GroupConfig::consumerSessionTimeoutMs).orElse(sessionTimeoutMs);
        }

        /** The group's {@code consumer.heartbeat.interval.ms} when set, else the broker's. */
        int heartbeatIntervalMs(String groupId) {
            return groupConfigs.groupConfig(groupId)
                .flatMap(org.apache.kafka.coordinator.group.GroupConfig::consumerHeartbeatIntervalMs)
                .orElse(heartbeatIntervalMs);
        }
    }

    private final GroupMetadataManager groups;
    private final ScheduledExecutorService timer;
    private final Config config;
    private final GroupTopics topics;
    private final org.apache.kafka.common.utils.Time time;
    private final ConsumerGroupTimers timers;
    private final GroupMigration migration;
    private final ConsumerGroupSubscriptions subscriptions;

    /**
     * @param topics the cluster's topics by name, with id and partition count
     */
    ConsumerGroupHeartbeats(GroupMetadataManager groups, ScheduledExecutorService timer, Config config,
                            GroupTopics topics, GroupMigration migration, org.apache.kafka.common.utils.Time time) {
        this.groups = groups;
        this.migration = migration;
        this.subscriptions = new ConsumerGroupSubscriptions(topics, config.assignors());
        this.timer = timer;
        this.config = config;
        this.topics = topics;
        this.time = time;
        this.timers = new ConsumerGroupTimers(timer, time, groups,
            (holder, group, member, why) -> storeFromTimer(group, removeMember(holder, group, member, why)));
    }

    /**
     * Handles one heartbeat of a group this broker coordinates (the caller checked the coordinator).
     *
     * @param version the request version: v0 has the coordinator pick a joining member's id, v1+ the client (KIP-1082)
     */
    CompletableFuture<ConsumerGroupHeartbeatResponseData> heartbeat(ConsumerGroupHeartbeatRequestData request,
                                                                    short version, String clientId, String clientHost) {
        ConsumerGroupHeartbeatResponseData refused = refusal(request, version);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        List<SimpleRecord> records = new ArrayList<>();
        ConsumerGroupHeartbeatResponseData response;
        CompletableFuture<Errors> written;
        ClassicGroup holder = request.memberEpoch() == 0 ? groups.getOrCreate(request.groupId())
            : groups.group(request.groupId());
        if (holder == null) {
            return CompletableFuture.completedFuture(handle(null, request, version, clientId, clientHost, records));
        }
        synchronized (holder) {
            response = handle(holder, request, version, clientId, clientHost, records);
            // Written under the group's monitor, so the group's records keep the order of its changes.
            written = groups.storeConsumerGroupRecords(request.groupId(), records);
        }
        return written.thenApply(error -> error == Errors.NONE || response.errorCode() != Errors.NONE.code() ? response
            : error(error, "The group's state could not be written: " + error.message()));
    }

    /** The answer to a request refused before any group is looked at (malformed, unknown assignor, bad pattern). */
    private ConsumerGroupHeartbeatResponseData refusal(ConsumerGroupHeartbeatRequestData request, short version) {
        String invalid = ConsumerGroupHeartbeatChecks.invalidRequest(request, version);
        if (invalid != null) {
            return error(Errors.INVALID_REQUEST, invalid);
        }
        if (request.serverAssignor() != null && !config.assignors().containsKey(request.serverAssignor())) {
            return error(Errors.UNSUPPORTED_ASSIGNOR, "ServerAssignor " + request.serverAssignor() + " is not supported. "
                + "Supported assignors: " + String.join(", ", config.assignors().keySet()) + ".");
        }
        if (request.subscribedTopicRegex() != null && !request.subscribedTopicRegex().isEmpty()) {
            try {
                subscriptions.pattern(request.subscribedTopicRegex());
            } catch (PatternSyntaxException e) {
                return error(Errors.INVALID_REGULAR_EXPRESSION, "SubscribedTopicRegex `" + request.subscribedTopicRegex()
                    + "` is not a valid regular expression: " + e.getDescription() + ".");
            }
        }
        return null;
    }

    private ConsumerGroupHeartbeatResponseData handle(ClassicGroup holder, ConsumerGroupHeartbeatRequestData request,
                                                      short version, String clientId, String clientHost,
                                                      List<SimpleRecord> records) {
        if (holder == null) {
            return error(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId() + " is not a member of group "
                + request.groupId() + ".");
        }
        {
            if (holder.is(GroupState.DEAD) || groups.group(request.groupId()) != holder) {
                return error(Errors.COORDINATOR_NOT_AVAILABLE, "The group is being deleted or moved.");
            }
            if (holder.consumerGroup() == null && holder.size() > 0 && request.memberEpoch() == 0
                    && holder.shareGroup() == null) {
                // Online upgrade (KIP-848): the classic members become classic members of the consumer group.
                String refused = migration.upgradeRefusal(holder);
                if (refused != null) {
                    return error(Errors.GROUP_ID_NOT_FOUND, refused);
                }
                ConsumerGroup converted = migration.upgrade(holder, records);
                converted.members().forEach(m -> timers.scheduleSession(holder, converted, m, sessionTimeoutMs(converted, m)));
            } else if (holder.consumerGroup() == null) {
                if (holder.size() > 0 || !holder.is(GroupState.EMPTY) || holder.shareGroup() != null) {
                    return error(Errors.GROUP_ID_NOT_FOUND, "Group " + request.groupId() + " is not a consumer group");
                }
                if (request.memberEpoch() != 0) {
                    return error(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId() + " is not a member of group "
                        + request.groupId() + ".");
                }
                holder.becomeConsumerGroup();
            }
            ConsumerGroup group = holder.consumerGroup();
            if (request.memberEpoch() == ConsumerGroup.LEAVE_GROUP_MEMBER_EPOCH
                    || request.memberEpoch() == ConsumerGroup.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
                return leave(holder, group, request, records);
            }
            return joinOrHeartbeat(holder, group, request, version, clientId, clientHost, records);
        }
    }

    private ConsumerGroupHeartbeatResponseData joinOrHeartbeat(ClassicGroup holder, ConsumerGroup group,
                                                               ConsumerGroupHeartbeatRequestData request, short version,
                                                               String clientId, String clientHost,
                                                               List<SimpleRecord> records) {
        long now = time.milliseconds();
        ConsumerGroupMember member;
        boolean bump = false;
        boolean joined = request.memberEpoch() == 0;
        Map<Uuid, Set<Integer>> owned = request.topicPartitions() == null ? null : owned(request);
        if (joined) {
            String memberId = request.memberId() == null || request.memberId().isEmpty()
                ? Uuid.randomUuid().toString() : request.memberId();
            ConsumerGroupMember existing = group.member(memberId);
            if (request.instanceId() != null) {
                ConsumerGroupMember previous = group.staticMember(request.instanceId()).orElse(null);
                if (previous != null && !previous.memberId().equals(memberId)) {
                    if (previous.memberEpoch() != ConsumerGroup.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
                        return error(Errors.UNRELEASED_INSTANCE_ID, "Static member " + previous.memberId()
                            + " with instance id " + request.instanceId() + " is not released yet.");
                    }
                    // KIP-848 static membership: the new member takes over the old one's epoch and assignment.
                    ConsumerGroupMember replacement = new ConsumerGroupMember(memberId, previous.instanceId(),
                        previous.rackId(), previous.clientId(), previous.clientHost(), previous.subscribedTopicNames(),
                        previous.subscribedTopicRegex(), previous.serverAssignor(), previous.rebalanceTimeoutMs(),
                        previous.previousMemberEpoch(), previous.previousMemberEpoch(), previous.state(),
                        previous.assigned(), previous.pendingRevocation(), previous.assignmentEpochs());
                    group.replaceStatic(previous, replacement);
                    records.addAll(ConsumerGroupRecords.memberTombstones(group.groupId(), previous.memberId(), now));
                    records.add(ConsumerGroupRecords.targetMember(group.groupId(), memberId,
                        group.targetOf(memberId), now));
                    timers.forgetMember(group, previous.memberId());
                    existing = replacement;
                }
            }
            if (existing == null) {
                if (group.members().size() >= config.maxSize()) {
                    return error(Errors.GROUP_MAX_SIZE_REACHED, "The consumer group has reached its maximum capacity of "
                        + config.maxSize() + " members.");
                }
                member = ConsumerGroupMember.joining(memberId, request.instanceId());
                bump = true;
            } else if (existing.memberEpoch() > 0 && existing.instanceId() == null) {
                // A member that lost its state joins again: it starts over, owning nothing.
                member = ConsumerGroupMember.joining(memberId, null);
                bump = true;
            } else {
                member = existing;
            }
        } else {
            member = group.member(request.memberId());
            if (member == null) {
                return error(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId() + " is not a member of group "
                    + group.groupId() + ".");
            }
            String fenced = fencedEpoch(member, request.memberEpoch(), owned);
            if (fenced != null) {
                return error(Errors.FENCED_MEMBER_EPOCH, fenced);
            }
        }
        ConsumerGroupMember subscribed = member.withSubscription(
            request.rackId() != null ? request.rackId() : member.rackId(), clientId, clientHost,
            request.subscribedTopicNames() != null ? request.subscribedTopicNames() : member.subscribedTopicNames(),
            request.subscribedTopicRegex() != null ? emptyToNull(request.subscribedTopicRegex())
                : member.subscribedTopicRegex(),
            request.serverAssignor() != null ? request.serverAssignor() : member.serverAssignor(),
            request.rebalanceTimeoutMs() > 0 ? request.rebalanceTimeoutMs() : member.rebalanceTimeoutMs());
        if (request.subscribedTopicNames() != null && request.subscribedTopicRegex() == null && subscribed.usesRegex()
                && !request.subscribedTopicNames().isEmpty()) {
            subscribed = subscribed.withSubscription(subscribed.rackId(), clientId, clientHost,
                request.subscribedTopicNames(), null, subscribed.serverAssignor(), subscribed.rebalanceTimeoutMs());
        }
        ConsumerGroupMember reconciled = update(group, member, subscribed, bump, joined, owned, records);
        timers.scheduleSession(holder, group, reconciled, config.sessionTimeoutMs(group.groupId()));
        if (reconciled.state() == ConsumerGroupMember.State.UNREVOKED_PARTITIONS
                && subscribed.state() != ConsumerGroupMember.State.UNREVOKED_PARTITIONS) {
            timers.scheduleRevocation(holder, group, reconciled);
        } else if (reconciled.state() != ConsumerGroupMember.State.UNREVOKED_PARTITIONS) {
            timers.cancelRevocation(group, reconciled.memberId());
        }
        ConsumerGroupHeartbeatResponseData response = new ConsumerGroupHeartbeatResponseData()
            .setMemberId(reconciled.memberId()).setMemberEpoch(reconciled.memberEpoch())
            .setHeartbeatIntervalMs(config.heartbeatIntervalMs(group.groupId()));
        if (joined || owned != null || !reconciled.assigned().equals(member.assigned())
                || reconciled.memberEpoch() != member.memberEpoch()) {
            response.setAssignment(assignment(reconciled.assigned()));
        }
        return response;
    }

    /**
     * Puts {@code subscribed} (the member with the subscription of its request) in the group, bumps the
     * group epoch when the membership ({@code bump}), a subscription or the subscribed topics changed,
     * computes the target of a new group epoch, and takes the member's next reconciliation step; the
     * records of each change are appended to {@code records}. Used by both protocols' members.
     *
     * @param owned the partitions the member reported owning, or null when it did not say
     * @return the reconciled member, as it is now in the group
     */
    ConsumerGroupMember update(ConsumerGroup group, ConsumerGroupMember member, ConsumerGroupMember subscribed,
                               boolean bump, boolean joined, Map<Uuid, Set<Integer>> owned, List<SimpleRecord> records) {
        long now = time.milliseconds();
        if (!subscribed.subscribedTopicNames().equals(member.subscribedTopicNames())
                || !java.util.Objects.equals(subscribed.subscribedTopicRegex(), member.subscribedTopicRegex())
                || !java.util.Objects.equals(subscribed.serverAssignor(), member.serverAssignor())
                || !java.util.Objects.equals(subscribed.rackId(), member.rackId())) {
            bump = true;
        }
        group.put(subscribed);
        if (!subscribed.equals(member) || member.memberEpoch() == 0) {
            records.add(ConsumerGroupRecords.memberSubscription(group.groupId(), subscribed,
                group.classicMember(subscribed.memberId()), now));
        }
        Map<String, GroupTopic> subscribedTopics = subscriptions.subscribedTopics(group);
        if (!subscribedTopics.equals(group.subscribedTopics())) {
            bump = true;
        }
        if (bump) {
            group.bumpGroupEpoch();
            records.add(ConsumerGroupRecords.groupEpoch(group.groupId(), group.groupEpoch(), now));
            log.info("Consumer group {} is now at epoch {}: {} member(s) {}", group.groupId(), group.groupEpoch(),
                group.members().size(), group.memberIds());
        }
        if (group.groupEpoch() > group.assignmentEpoch()) {
            Map<String, Map<Uuid, Set<Integer>>> before = group.targetAssignment();
            group.computeTargetAssignment(subscriptions.assignorOf(group), subscribedTopics, subscriptions::topicsOf);
            group.targetAssignment().forEach((memberId, target) -> {
                if (!target.equals(before.get(memberId))) {
                    records.add(ConsumerGroupRecords.targetMember(group.groupId(), memberId, target, now));
                }
            });
            records.add(ConsumerGroupRecords.targetEpoch(group.groupId(), group.assignmentEpoch(), now));
        }
        ConsumerGroupMember reconciled = group.reconcile(subscribed, joined ? Assignments.EMPTY : owned);
        group.put(reconciled);
        if (reconciled.memberEpoch() != member.memberEpoch() || reconciled.state() != member.state()
                || !reconciled.assigned().equals(member.assigned())
                || !reconciled.pendingRevocation().equals(member.pendingRevocation()) || joined) {
            records.add(ConsumerGroupRecords.currentAssignment(group.groupId(), reconciled, now));
        }
        return reconciled;
    }

    private ConsumerGroupHeartbeatResponseData leave(ClassicGroup holder, ConsumerGroup group,
                                                     ConsumerGroupHeartbeatRequestData request,
                                                     List<SimpleRecord> records) {
        ConsumerGroupMember member = group.member(request.memberId());
        if (member == null && request.instanceId() != null) {
            member = group.staticMember(request.instanceId()).orElse(null);
        }
        if (member == null) {
            return error(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId() + " is not a member of group "
                + group.groupId() + ".");
        }
        timers.cancelRevocation(group, member.memberId());
        if (request.memberEpoch() == ConsumerGroup.LEAVE_GROUP_STATIC_MEMBER_EPOCH && member.instanceId() != null) {
            group.put(member.leftTemporarily());
            records.add(ConsumerGroupRecords.currentAssignment(group.groupId(), member.leftTemporarily(),
                time.milliseconds()));
            log.info("Static member {} ({}) of consumer group {} left for now; its assignment waits for it",
                member.memberId(), member.instanceId(), group.groupId());
        } else {
            records.addAll(removeMember(holder, group, member, "left the group"));
        }
        return new ConsumerGroupHeartbeatResponseData().setMemberId(member.memberId())
            .setMemberEpoch(request.memberEpoch()).setHeartbeatIntervalMs(0);
    }

    /**
     * Removes a member and bumps the group epoch; the records that say so, to be written. When the
     * members left all speak the classic protocol and the policy allows it, the group becomes a
     * classic group instead (online downgrade, {@link GroupMigration#downgrade}).
     */
    List<SimpleRecord> removeMember(ClassicGroup holder, ConsumerGroup group, ConsumerGroupMember member, String why) {
        if (migration.canDowngrade(group, member.memberId())) {
            log.info("Member {} of consumer group {} {}; the members left use the classic protocol", member.memberId(),
                group.groupId(), why);
            timers.forget(group);
            return migration.downgrade(holder, group, member.memberId());
        }
        group.remove(member.memberId());
        if (group.members().isEmpty()) {
            holder.consumerGroupEmptied(time.milliseconds());
        }
        timers.forgetMember(group, member.memberId());
        group.bumpGroupEpoch();
        log.info("Member {} of consumer group {} {}; the group is now at epoch {}", member.memberId(), group.groupId(),
            why, group.groupEpoch());
        long now = time.milliseconds();
        List<SimpleRecord> records = new ArrayList<>(ConsumerGroupRecords.memberTombstones(group.groupId(),
            member.memberId(), now));
        records.add(ConsumerGroupRecords.groupEpoch(group.groupId(), group.groupEpoch(), now));
        return records;
    }

    /** Writes what a timer changed; a failure is logged (the coordinator is moving, the new one reloads). */
    private void storeFromTimer(ConsumerGroup group, List<SimpleRecord> records) {
        groups.storeConsumerGroupRecords(group.groupId(), records).thenAccept(error -> {
            if (error != Errors.NONE) {
                log.warn("Could not write the removal of a member of consumer group {}: {}", group.groupId(), error);
            }
        });
    }

    /** Kafka's check of a heartbeat's epoch: its current one, or the previous one while nothing new is owned. */
    private static String fencedEpoch(ConsumerGroupMember member, int epoch, Map<Uuid, Set<Integer>> owned) {
        if (epoch > member.memberEpoch()) {
            return "The consumer group member has a greater member epoch (" + epoch + ") than the one known by the "
                + "group coordinator (" + member.memberEpoch() + "). The member must abandon all its partitions and rejoin.";
        }
        if (epoch < member.memberEpoch() && (epoch != member.previousMemberEpoch()
                || (owned != null && !Assignments.containsAll(member.assigned(), owned)))) {
            return "The consumer group member has a smaller member epoch (" + epoch + ") than the one known by the "
                + "group coordinator (" + member.memberEpoch() + "). The member must abandon all its partitions and rejoin.";
        }
        return null;
    }

    /**
     * A group loaded from {@code __consumer_offsets} by a new coordinator: its subscribed topics are
     * taken as they are now, and every member's session counts from now, as Kafka's coordinator
     * does on load.
     */
    void onLoaded(ClassicGroup holder) {
        synchronized (holder) {
            ConsumerGroup group = holder.consumerGroup();
            if (group == null) {
                return;
            }
            group.adoptSubscribedTopics(subscriptions.subscribedTopics(group));
            group.members().forEach(m -> timers.scheduleSession(holder, group, m, sessionTimeoutMs(group, m)));
            log.info("Loaded consumer group {} at epoch {} with {} member(s)", group.groupId(), group.groupEpoch(),
                group.members().size());
        }
    }

    /** A member's session timeout, ms: a classic member's own (from its JoinGroup), else the group's. */
    int sessionTimeoutMs(ConsumerGroup group, ConsumerGroupMember member) {
        ClassicMemberMetadata classic = group.classicMember(member.memberId());
        return classic != null ? classic.sessionTimeoutMs() : config.sessionTimeoutMs(group.groupId());
    }

    /** The timers of the members, shared with the classic members' requests ({@link ClassicMemberInConsumerGroup}). */
    ConsumerGroupTimers timers() {
        return timers;
    }

    /** The {@code group.consumer.*} settings. */
    Config config() {
        return config;
    }

    /** Forgets the timers of a group's members (the group was unloaded or deleted). */
    void forget(ConsumerGroup group) {
        timers.forget(group);
    }

    /** The name of the assignor the group uses now. */
    String preferredAssignor(ConsumerGroup group) {
        return subscriptions.assignorOf(group).name();
    }

    private static Map<Uuid, Set<Integer>> owned(ConsumerGroupHeartbeatRequestData request) {
        Map<Uuid, Set<Integer>> owned = new HashMap<>();
        request.topicPartitions().forEach(tp -> owned.computeIfAbsent(tp.topicId(), t -> new HashSet<>())
            .addAll(tp.partitions()));
        return Assignments.copy(owned);
    }

    static ConsumerGroupHeartbeatResponseData.Assignment assignment(Map<Uuid, Set<Integer>> partitions) {
        List<ConsumerGroupHeartbeatResponseData.TopicPartitions> out = new ArrayList<>();
        partitions.forEach((topic, ps) -> out.add(new ConsumerGroupHeartbeatResponseData.TopicPartitions()
            .setTopicId(topic).setPartitions(new ArrayList<>(ps))));
        return new ConsumerGroupHeartbeatResponseData.Assignment().setTopicPartitions(out);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static ConsumerGroupHeartbeatResponseData error(Errors error, String message) {
        return new ConsumerGroupHeartbeatResponseData().setErrorCode(error.code()).setErrorMessage(message);
    }
}
