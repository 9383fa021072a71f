package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupResponseData;

/**
 * One member of a classic group: its identity, timeouts, the protocols it supports (name and
 * subscription metadata, in preference order), its assignment, and the JoinGroup or SyncGroup
 * response it is waiting for, if any.
 *
 * <p>Not thread-safe: guarded by its group's lock.
 */
final class GroupMember {

    /** A protocol a member supports, e.g. ("range", serialized subscription). */
    record Protocol(String name, byte[] metadata) {
    }

    private final String memberId;
    private final String groupInstanceId;
    private final String clientId;
    private final String clientHost;
    private String protocolType;
    private int rebalanceTimeoutMs;
    private int sessionTimeoutMs;
    private List<Protocol> protocols;
    private byte[] assignment = new byte[0];
    private Consumer<JoinGroupResponseData> awaitingJoin;
    private Consumer<SyncGroupResponseData> awaitingSync;
    private ScheduledFuture<?> heartbeatExpiry;
    private boolean isNew;

    GroupMember(String memberId, String groupInstanceId, String clientId, String clientHost, int rebalanceTimeoutMs,
                int sessionTimeoutMs, String protocolType, List<Protocol> protocols) {
        this.memberId = memberId;
        this.groupInstanceId = groupInstanceId;
        this.clientId = clientId;
        this.clientHost = clientHost;
        this.rebalanceTimeoutMs = rebalanceTimeoutMs;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.protocolType = protocolType;
        this.protocols = List.copyOf(protocols);
    }

    String memberId() {
        return memberId;
    }

    String groupInstanceId() {
        return groupInstanceId;
    }

    boolean isStatic() {
        return groupInstanceId != null;
    }

    String clientId() {
        return clientId;
    }

    String clientHost() {
        return clientHost;
    }

    int rebalanceTimeoutMs() {
        return rebalanceTimeoutMs;
    }

    int sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    String protocolType() {
        return protocolType;
    }

    List<Protocol> protocols() {
        return protocols;
    }

    /** Names of the supported protocols, in preference order. */
    List<String> protocolNames() {
        List<String> names = new ArrayList<>();
        protocols.forEach(p -> names.add(p.name()));
        return names;
    }

    /** The subscription metadata for {@code protocol}. */
    byte[] metadata(String protocol) {
        for (Protocol p : protocols) {
            if (p.name().equals(protocol)) {
                return p.metadata();
            }
        }
        throw new IllegalArgumentException("Member " + memberId + " does not support protocol " + protocol);
    }

    /** Whether the member's protocols are exactly {@code other} (names and metadata, in order). */
    boolean matches(List<Protocol> other) {
        if (other.size() != protocols.size()) {
            return false;
        }
        for (int i = 0; i < other.size(); i++) {
            if (!other.get(i).name().equals(protocols.get(i).name())
                    || !Arrays.equals(other.get(i).metadata(), protocols.get(i).metadata())) {
                return false;
            }
        }
        return true;
    }

    void update(int newRebalanceTimeoutMs, int newSessionTimeoutMs, String newProtocolType, List<Protocol> newProtocols) {
        this.rebalanceTimeoutMs = newRebalanceTimeoutMs;
        this.sessionTimeoutMs = newSessionTimeoutMs;
        this.protocolType = newProtocolType;
        this.protocols = List.copyOf(newProtocols);
    }

    byte[] assignment() {
        return assignment;
    }

    void assignment(byte[] newAssignment) {
        this.assignment = newAssignment == null ? new byte[0] : newAssignment;
    }

    boolean isAwaitingJoin() {
        return awaitingJoin != null;
    }

    void awaitJoin(Consumer<JoinGroupResponseData> callback) {
        this.awaitingJoin = callback;
    }

    /** Completes the pending JoinGroup, if any. */
    void completeJoin(JoinGroupResponseData response) {
        Consumer<JoinGroupResponseData> callback = awaitingJoin;
        awaitingJoin = null;
        if (callback != null) {
            callback.accept(response);
        }
    }

    boolean isAwaitingSync() {
        return awaitingSync != null;
    }

    void awaitSync(Consumer<SyncGroupResponseData> callback) {
        this.awaitingSync = callback;
    }

    /** Completes the pending SyncGroup, if any. */
    void completeSync(SyncGroupResponseData response) {
        Consumer<SyncGroupResponseData> callback = awaitingSync;
        awaitingSync = null;
        if (callback != null) {
            callback.accept(response);
        }
    }

    private long heartbeatEpoch;

    /** Starts a new heartbeat period and returns its number; an expiry fires only for the current one. */
    long nextHeartbeatEpoch() {
        return ++heartbeatEpoch;
    }

    long heartbeatEpoch() {
        return heartbeatEpoch;
    }

    /** Replaces the pending heartbeat expiry, cancelling the previous one. */
    void heartbeatExpiry(ScheduledFuture<?> expiry) {
        if (heartbeatExpiry != null) {
            heartbeatExpiry.cancel(false);
        }
        this.heartbeatExpiry = expiry;
    }

    void cancelHeartbeatExpiry() {
        heartbeatExpiry(null);
    }

    boolean isNew() {
        return isNew;
    }

    void isNew(boolean value) {
        this.isNew = value;
    }

    /** The same member under another id (a static member rejoining), keeping everything else. */
    GroupMember withMemberId(String newMemberId) {
        GroupMember copy = new GroupMember(newMemberId, groupInstanceId, clientId, clientHost, rebalanceTimeoutMs,
            sessionTimeoutMs, protocolType, protocols);
        copy.assignment = assignment;
        return copy;
    }

    @Override
    public String toString() {
        return "GroupMember(" + memberId + (groupInstanceId == null ? "" : ", instance " + groupInstanceId) + ")";
    }
}
