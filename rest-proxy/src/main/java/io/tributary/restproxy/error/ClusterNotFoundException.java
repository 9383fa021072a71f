package io.tributary.restproxy.error;

/** The cluster id named is not the id of the cluster this proxy serves. */
public final class ClusterNotFoundException extends RestException {

    public ClusterNotFoundException(String clusterId, String actualClusterId) {
        super("Cluster " + clusterId + " not found; this is cluster " + actualClusterId);
    }
}
