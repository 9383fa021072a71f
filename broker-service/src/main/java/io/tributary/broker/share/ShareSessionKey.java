package io.tributary.broker.share;

/**
 * A share session's key: one member of one share group (KIP-932).
 *
 * @param groupId  the share group
 * @param memberId the member, as its ShareFetch names it
 */
public record ShareSessionKey(String groupId, String memberId) {
}
