package io.tributary.restproxy.forwarding;

import io.tributary.restproxy.share.ShareInstancePeers;
import java.util.Optional;
import org.springframework.stereotype.Component;

/** Asks the peers ({@link PeerDirectory}) whether one holds a share consumer instance. Thread-safe. */
@Component
public class SharePeerLookup implements ShareInstancePeers {

    private final PeerDirectory directory;

    public SharePeerLookup(PeerDirectory directory) {
        this.directory = directory;
    }

    @Override
    public Optional<String> findOnPeers(String group, String instanceId) {
        return directory.findOnPeers(InstanceKind.SHARE, group, instanceId);
    }
}
