package io.tributary.restproxy.share;

import java.util.Optional;

/**
 * The other replicas of this proxy, asked whether they hold a share consumer instance, so that an
 * instance name stays unique in its share group across the replicas. Implemented by the forwarding
 * layer, which knows the peers. Implementations are thread-safe; a call may wait a few seconds on
 * each peer's answer.
 */
public interface ShareInstancePeers {

    /** The base URL of the peer that holds share instance {@code instanceId} of {@code group} now, if one does. */
    Optional<String> findOnPeers(String group, String instanceId);
}
