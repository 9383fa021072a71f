package io.tributary.broker.group;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timers of the classic rebalance protocol, as Kafka's group coordinator arms them:
 * <ul>
 *   <li>a member's session timeout ({@code session.timeout.ms}), counted again from every heartbeat
 *       (any valid request counts); a member still awaiting its JoinGroup or SyncGroup answer when
 *       it ends sends no heartbeats, so its session counts again (Kafka's hasSatisfiedHeartbeat);</li>
 *   <li>the join timeout of a new member, which has no heartbeat yet and is dropped if it does not
 *       finish joining in time;</li>
 *   <li>the wait of a pending member for its second JoinGroup (KIP-394);</li>
 *   <li>the rebalance timeout (the largest {@code rebalance.timeout.ms}) of the join phase and of the
 *       sync phase;</li>
 *   <li>the initial rebalance delay of a new group ({@code group.initial.rebalance.delay.ms}, KIP-134),
 *       extended while members keep arriving.</li>
 * </ul>
 * A timer that fires takes the group's monitor and does nothing if the group has moved on (another
 * state or generation, or a newer heartbeat: the member's heartbeat epoch); otherwise it runs the
 * action it was armed with. The action comes with each timer, as Kafka's delayed operations call
 * back into the coordinator. The group holds its one rebalance timer and a member its one expiry:
 * arming one cancels the one before (a pending member's wait is not held: it finds the member gone).
 *
 * <p>Thread-safety: every operation on a group holds the group's monitor (the caller's when a
 * timer is armed; a timer takes it before it looks at the group); timers run on one thread.
 */
final class RebalanceTimers {

    private static final Logger log = LoggerFactory.getLogger(RebalanceTimers.class);
    /** How long a new member may take to send its second JoinGroup before it is dropped, ms (Kafka's value). */
    private static final int NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000;

    /** What becomes of a member whose session or join timeout ended. */
    @FunctionalInterface
    interface MemberExpiry {

        /** Removes the member from the group; {@code reason} says which timeout ended, for the log. */
        void expire(ClassicGroup group, GroupMember member, String reason);
    }

    private final ScheduledExecutorService timer;
    private final int initialRebalanceDelayMs;

    /**
     * @param timer                   runs every timer, on one thread at a time
     * @param initialRebalanceDelayMs {@code group.initial.rebalance.delay.ms}
     */
    RebalanceTimers(ScheduledExecutorService timer, int initialRebalanceDelayMs) {
        this.timer = timer;
        this.initialRebalanceDelayMs = initialRebalanceDelayMs;
    }

    /** Arms a member's session timeout: it counts again from now. */
    void scheduleHeartbeat(ClassicGroup group, GroupMember member, MemberExpiry onExpired) {
        scheduleExpiry(group, member.memberId(), member.sessionTimeoutMs(), onExpired);
    }

    /** Arms the join timeout of a member that just joined: it has no heartbeat yet. */
    void scheduleNewMemberJoin(ClassicGroup group, GroupMember member, MemberExpiry onExpired) {
        scheduleExpiry(group, member.memberId(), NEW_MEMBER_JOIN_TIMEOUT_MS, onExpired);
    }

    /** Arms the session (or new-member join) timeout of a member; a newer one cancels it. */
    private void scheduleExpiry(ClassicGroup group, String memberId, int timeoutMs, MemberExpiry onExpired) {
        GroupMember member = group.get(memberId);
        long epoch = member == null ? 0 : member.nextHeartbeatEpoch();
        var expiry = timer.schedule(() -> onExpiry(group, memberId, epoch, onExpired), timeoutMs, TimeUnit.MILLISECONDS);
        if (member != null) {
            member.heartbeatExpiry(expiry);
        }
    }

    private void onExpiry(ClassicGroup group, String memberId, long epoch, MemberExpiry onExpired) {
        synchronized (group) {
            GroupMember member = group.get(memberId);
            if (member != null && member.heartbeatEpoch() == epoch && !group.is(GroupState.DEAD)) {
                if (!member.isNew() && (member.isAwaitingJoin() || member.isAwaitingSync())) {
                    // A member waiting for its JoinGroup or SyncGroup answer sends no heartbeats (Kafka's
                    // hasSatisfiedHeartbeat): its session counts again from now.
                    scheduleHeartbeat(group, member, onExpired);
                    return;
                }
                onExpired.expire(group, member, "failed: no heartbeat within " + member.sessionTimeoutMs()
                    + " ms" + (member.isNew() ? " of joining" : ""));
            }
        }
    }

    /**
     * Arms the wait of a pending member (KIP-394) for its second JoinGroup: if it has not come by
     * then, the pending member is dropped and {@code onDropped} runs.
     */
    void schedulePendingMember(ClassicGroup group, String memberId, int timeoutMs, Consumer<ClassicGroup> onDropped) {
        timer.schedule(() -> {
            synchronized (group) {
                if (group.removePendingMember(memberId)) {
                    log.info("Pending member {} of group {} did not join in time", memberId, group.groupId());
                    onDropped.accept(group);
                }
            }
        }, timeoutMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Arms the rebalance timeout of the join phase: if the group is still preparing the same
     * rebalance then (past its initial delay), {@code onTimeout} ends the join.
     */
    void scheduleJoinTimeout(ClassicGroup group, Consumer<ClassicGroup> onTimeout) {
        int generation = group.generationId();
        group.rebalanceTimer(timer.schedule(() -> {
            synchronized (group) {
                if (group.is(GroupState.PREPARING_REBALANCE) && group.generationId() == generation
                        && !group.inInitialJoinDelay()) {
                    onTimeout.accept(group);
                }
            }
        }, group.rebalanceTimeoutMs(), TimeUnit.MILLISECONDS), false);
    }

    /**
     * Arms the rebalance timeout of the sync phase: if the group is still in the same generation then
     * (CompletingRebalance, or Stable with SyncGroups still missing), {@code onTimeout} runs. It stays
     * armed when the group becomes Stable, and is cancelled once every member has sent SyncGroup or
     * a rebalance begins.
     */
    void scheduleSyncTimeout(ClassicGroup group, Consumer<ClassicGroup> onTimeout) {
        int generation = group.generationId();
        group.rebalanceTimer(timer.schedule(() -> {
            synchronized (group) {
                if ((group.is(GroupState.COMPLETING_REBALANCE) || group.is(GroupState.STABLE))
                        && group.generationId() == generation) {
                    onTimeout.accept(group);
                }
            }
        }, group.rebalanceTimeoutMs(), TimeUnit.MILLISECONDS), false);
    }

    /**
     * Arms the initial rebalance delay of a new group's first join (KIP-134): the join waits for
     * more members, each arrival extends the wait until the rebalance timeout, and then
     * {@code onDelayEnded} ends the join.
     */
    void scheduleInitialJoin(ClassicGroup group, Consumer<ClassicGroup> onDelayEnded) {
        int delay = Math.min(initialRebalanceDelayMs, group.rebalanceTimeoutMs());
        scheduleInitialJoin(group, delay, Math.max(group.rebalanceTimeoutMs() - delay, 0), onDelayEnded);
    }

    private void scheduleInitialJoin(ClassicGroup group, int delayMs, int remainingMs, Consumer<ClassicGroup> onDelayEnded) {
        group.rebalanceTimer(timer.schedule(() -> {
            synchronized (group) {
                if (!group.is(GroupState.PREPARING_REBALANCE) || !group.inInitialJoinDelay()) {
                    return;
                }
                if (group.newMemberAdded() && remainingMs > 0) {
                    group.resetNewMemberAdded();
                    int next = Math.min(initialRebalanceDelayMs, remainingMs);
                    scheduleInitialJoin(group, next, Math.max(remainingMs - next, 0), onDelayEnded);
                } else {
                    onDelayEnded.accept(group);
                }
            }
        }, delayMs, TimeUnit.MILLISECONDS), true);
    }
}
