package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * The znode ACLs of a broker with {@code zookeeper.set.acl}, Kafka's rule (ZkData's
 * {@code defaultAcls}): the creating identity may do everything, everyone else may only read;
 * under the sensitive roots (SCRAM credentials in {@code /config/users}, broker configs in
 * {@code /config/brokers}) nobody else may even read. Every broker of a cluster connects with the
 * same digest credentials, so each may change what another created.
 *
 * <p>Stateless and thread-safe.
 */
public final class ZkAcls implements ACLProvider {

    private static final List<String> SENSITIVE_ROOTS = List.of("/config/users", "/config/brokers");

    @Override
    public List<ACL> getDefaultAcl() {
        List<ACL> acls = new ArrayList<>(ZooDefs.Ids.CREATOR_ALL_ACL);
        acls.addAll(ZooDefs.Ids.READ_ACL_UNSAFE);
        return acls;
    }

    @Override
    public List<ACL> getAclForPath(String path) {
        for (String root : SENSITIVE_ROOTS) {
            if (path.equals(root) || path.startsWith(root + "/")) {
                return ZooDefs.Ids.CREATOR_ALL_ACL;
            }
        }
        return getDefaultAcl();
    }
}
