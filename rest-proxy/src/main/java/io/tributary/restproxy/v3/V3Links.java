package io.tributary.restproxy.v3;

import io.tributary.restproxy.v3.V3Resources.Metadata;
import io.tributary.restproxy.v3.V3Resources.Related;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** URLs of v3 resources, relative to the current request's base URL. Call on a request thread. */
final class V3Links {

    private V3Links() {
    }

    static String cluster(String clusterId) {
        return ServletUriComponentsBuilder.fromCurrentContextPath().toUriString() + "/v3/clusters/" + clusterId;
    }

    static Metadata self(String clusterId, String path) {
        return Metadata.of(cluster(clusterId) + path);
    }

    static Related related(String clusterId, String path) {
        return new Related(cluster(clusterId) + path);
    }
}
