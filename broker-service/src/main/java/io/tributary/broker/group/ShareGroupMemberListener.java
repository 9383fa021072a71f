package io.tributary.broker.group;

/**
 * Told when a member leaves a share group (KIP-932), so the share-partition layer can release the
 * records the member had acquired (they go back to Available for other members, their delivery
 * count kept) instead of waiting for their acquisition locks to time out.
 *
 * <p>Called when a member leaves with a ShareGroupHeartbeat of epoch -1, and when the coordinator
 * removes it because it did not heartbeat within its session timeout
 * ({@code group.share.session.timeout.ms}, or the group's {@code share.session.timeout.ms}). Not
 * called when the group moves to another coordinator (the member is still in the group there).
 *
 * <p>Called outside every group lock, on a request-handler thread or the coordinator's timer
 * thread, possibly concurrently for different groups. An implementation must return quickly and
 * never block (no I/O, no lock held across I/O): hand the work to its own executor if it has any.
 * An exception it throws is logged and otherwise ignored.
 */
@FunctionalInterface
public interface ShareGroupMemberListener {

    /** Does nothing: the default until a share-partition layer is wired in. */
    ShareGroupMemberListener NONE = (groupId, memberId) -> { };

    /**
     * @param groupId  the share group
     * @param memberId the member that left or was fenced
     */
    void memberLeft(String groupId, String memberId);
}
