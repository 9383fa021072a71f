package io.tributary.broker.group;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Time;

/**
 * The session timers of share-group members (KIP-932): a member's session ends
 * {@code share.session.timeout.ms} after its last heartbeat. Timers run on the coordinator's timer
 * (driven by the mock clock in tests); one that fires after its member heartbeated again (a newer
 * deadline) does nothing; otherwise it hands the member to {@link Expiry}, which takes the group's
 * monitor and checks the member is still there.
 *
 * <p>Thread-safe.
 */
final class ShareGroupSessions {

    /** What becomes of a member whose session ended. */
    @FunctionalInterface
    interface Expiry {
        /**
         * @param deadlineMs the deadline the timer was armed for: the member is removed only if its
         *                   session still ends then (no heartbeat re-armed it meanwhile)
         */
        void expire(ClassicGroup holder, String groupId, String memberId, long deadlineMs, int sessionTimeoutMs);
    }

    private final ScheduledExecutorService timer;
    private final Time time;
    private final Expiry onExpired;
    private final Map<String, ScheduledFuture<?>> sessions = new ConcurrentHashMap<>();
    private final Map<String, Long> deadlines = new ConcurrentHashMap<>();

    ShareGroupSessions(ScheduledExecutorService timer, Time time, Expiry onExpired) {
        this.timer = timer;
        this.time = time;
        this.onExpired = onExpired;
    }

    /** (Re)starts a member's session: it ends {@code sessionTimeoutMs} from now unless it heartbeats again. */
    void schedule(ClassicGroup holder, String groupId, String memberId, int sessionTimeoutMs) {
        String key = key(groupId, memberId);
        long deadline = time.milliseconds() + sessionTimeoutMs;
        deadlines.put(key, deadline);
        cancel(key);
        sessions.put(key, timer.schedule(() -> onExpired.expire(holder, groupId, memberId, deadline, sessionTimeoutMs),
            sessionTimeoutMs, TimeUnit.MILLISECONDS));
    }

    /** Whether the member's session still ends at {@code deadlineMs} and that moment has come. */
    boolean expired(String groupId, String memberId, long deadlineMs) {
        Long current = deadlines.get(key(groupId, memberId));
        return current != null && current == deadlineMs && time.milliseconds() >= deadlineMs;
    }

    /** Forgets a member's session (it left, was removed, or its group was unloaded). */
    void forget(String groupId, String memberId) {
        String key = key(groupId, memberId);
        deadlines.remove(key);
        cancel(key);
    }

    private void cancel(String key) {
        ScheduledFuture<?> previous = sessions.remove(key);
        if (previous != null) {
            previous.cancel(false);
        }
    }

    private static String key(String groupId, String memberId) {
        return groupId + '\u0000' + memberId;
    }
}
