package io.tributary.broker.group;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Time;

/**
 * The two timers of a KIP-848 group member, as Kafka's coordinator arms them: its session
 * ({@code group.consumer.session.timeout.ms}, counted again from every heartbeat) and, while it
 * has partitions to revoke, its rebalance timeout. A timer that ends takes the group's holder
 * monitor and does nothing if the member moved on (a newer heartbeat, another epoch or state,
 * a group unloaded); otherwise it hands the member to {@link Expiry}.
 *
 * <p>Thread-safe; timers run on the coordinator's timer thread.
 */
final class ConsumerGroupTimers {

    /** What becomes of a member whose timer ended: it is removed, {@code why} says which timer. */
    @FunctionalInterface
    interface Expiry {
        void expire(ClassicGroup holder, ConsumerGroup group, ConsumerGroupMember member, String why);
    }

    private final ScheduledExecutorService timer;
    private final Time time;
    private final GroupMetadataManager groups;
    private final Expiry onExpired;
    private final Map<String, ScheduledFuture<?>> sessions = new ConcurrentHashMap<>();
    /** When each member's session ends, ms: a timer that fires before (re-armed meanwhile) does nothing. */
    private final Map<String, Long> sessionDeadlines = new ConcurrentHashMap<>();
    private final Map<String, ScheduledFuture<?>> revocations = new ConcurrentHashMap<>();
    /** The join and sync deadlines of classic members, by member key and kind. */
    private final Map<String, ScheduledFuture<?>> classicDeadlines = new ConcurrentHashMap<>();

    /** The deadlines of a classic member of a consumer group, as Kafka's join and sync timeouts. */
    enum ClassicDeadline {
        /** Told to rejoin (REBALANCE_IN_PROGRESS), it must send a JoinGroup within its rebalance timeout. */
        JOIN("join"),
        /** Answered its JoinGroup, it must send its SyncGroup within its rebalance timeout. */
        SYNC("sync");

        private final String verb;

        ClassicDeadline(String verb) {
            this.verb = verb;
        }
    }

    ConsumerGroupTimers(ScheduledExecutorService timer, Time time, GroupMetadataManager groups, Expiry onExpired) {
        this.timer = timer;
        this.time = time;
        this.groups = groups;
        this.onExpired = onExpired;
    }

    /** (Re)starts a member's session: it ends {@code sessionTimeoutMs} from now unless it heartbeats again. */
    void scheduleSession(ClassicGroup holder, ConsumerGroup group, ConsumerGroupMember member, int sessionTimeoutMs) {
        String key = key(group, member.memberId());
        cancel(sessions, key);
        sessionDeadlines.put(key, time.milliseconds() + sessionTimeoutMs);
        sessions.put(key, timer.schedule(() -> {
            synchronized (holder) {
                Long deadline = sessionDeadlines.get(key);
                if (deadline == null || time.milliseconds() < deadline) {
                    return; // a newer heartbeat re-armed it, or the member is gone
                }
                ConsumerGroupMember current = group.member(member.memberId());
                if (current != null && holder.consumerGroup() == group && groups.group(group.groupId()) == holder) {
                    sessions.remove(key);
                    onExpired.expire(holder, group, current, "was removed: no heartbeat within the session timeout of "
                        + sessionTimeoutMs + " ms");
                }
            }
        }, sessionTimeoutMs, TimeUnit.MILLISECONDS));
    }

    /** Gives a member that must revoke partitions its rebalance timeout to do so at this epoch. */
    void scheduleRevocation(ClassicGroup holder, ConsumerGroup group, ConsumerGroupMember member) {
        String key = key(group, member.memberId());
        cancel(revocations, key);
        int epoch = member.memberEpoch();
        revocations.put(key, timer.schedule(() -> {
            synchronized (holder) {
                ConsumerGroupMember now = group.member(member.memberId());
                if (now != null && now.memberEpoch() == epoch
                        && now.state() == ConsumerGroupMember.State.UNREVOKED_PARTITIONS
                        && holder.consumerGroup() == group) {
                    revocations.remove(key);
                    onExpired.expire(holder, group, now, "was fenced: it did not revoke its partitions within its "
                        + "rebalance timeout of " + now.rebalanceTimeoutMs() + " ms");
                }
            }
        }, member.rebalanceTimeoutMs(), TimeUnit.MILLISECONDS));
    }

    /**
     * Arms a classic member's join or sync deadline of its rebalance timeout; a join deadline already
     * armed is kept (Kafka's {@code scheduleIfAbsent}), a sync deadline replaces the previous one. When
     * it ends with the member still there, the member is fenced (removed).
     */
    void scheduleClassic(ClassicGroup holder, ConsumerGroup group, ConsumerGroupMember member, ClassicDeadline kind) {
        String key = key(group, member.memberId()) + '\u0000' + kind;
        if (kind == ClassicDeadline.JOIN && classicDeadlines.containsKey(key)) {
            return;
        }
        cancel(classicDeadlines, key);
        int timeoutMs = member.rebalanceTimeoutMs();
        ScheduledFuture<?>[] armed = new ScheduledFuture<?>[1];
        armed[0] = timer.schedule(() -> {
            synchronized (holder) {
                ConsumerGroupMember now = group.member(member.memberId());
                if (classicDeadlines.remove(key, armed[0]) && now != null && holder.consumerGroup() == group) {
                    forgetMember(group, member.memberId());
                    onExpired.expire(holder, group, now, "was fenced: as a classic member it did not " + kind.verb
                        + " within its rebalance timeout of " + timeoutMs + " ms");
                }
            }
        }, timeoutMs, TimeUnit.MILLISECONDS);
        classicDeadlines.put(key, armed[0]);
    }

    /** A classic member sent the JoinGroup or SyncGroup it was waited for. */
    void cancelClassic(ConsumerGroup group, String memberId, ClassicDeadline kind) {
        cancel(classicDeadlines, key(group, memberId) + '\u0000' + kind);
    }

    /** The member revoked what it had to (or left): its rebalance timeout no longer counts. */
    void cancelRevocation(ConsumerGroup group, String memberId) {
        cancel(revocations, key(group, memberId));
    }

    /** Forgets both timers of a member (removed or replaced). */
    void forgetMember(ConsumerGroup group, String memberId) {
        String key = key(group, memberId);
        sessionDeadlines.remove(key);
        cancel(sessions, key);
        cancel(revocations, key);
        for (ClassicDeadline kind : ClassicDeadline.values()) {
            cancel(classicDeadlines, key + '\u0000' + kind);
        }
    }

    /** Forgets the timers of a group's members (the group was unloaded or deleted). */
    void forget(ConsumerGroup group) {
        group.memberIds().forEach(memberId -> forgetMember(group, memberId));
    }

    private static void cancel(Map<String, ScheduledFuture<?>> timers, String key) {
        ScheduledFuture<?> previous = timers.remove(key);
        if (previous != null) {
            previous.cancel(false);
        }
    }

    private static String key(ConsumerGroup group, String memberId) {
        return group.groupId() + '\u0000' + memberId;
    }
}
