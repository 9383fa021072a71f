package io.tributary.restproxy.consumer;

import java.util.Optional;

/**
 * The other replicas of this proxy, asked whether they hold a consumer instance, so that an
 * instance name stays unique in its group across the replicas, as it is on one Confluent proxy.
 * Implemented by the forwarding layer, which knows the peers. Implementations are thread-safe; a
 * call may wait a few seconds on each peer's answer.
 */
public interface PeerInstances {

    /** The base URL of the peer that holds instance {@code instanceId} of {@code group} now, if one does. */
    Optional<String> findOnPeers(String group, String instanceId);
}
