package io.tributary.restproxy.forwarding;

import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.consumer.PeerInstances;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Finds which proxy replica owns a consumer instance or a share consumer instance
 * ({@link InstanceKind}). A generated instance id names its replica ({@code rest-consumer-<replica
 * id>-<uuid>}, {@code rest-share-<replica id>-<uuid>}), resolved to a URL by asking each peer its
 * id once; a named instance is looked for on every peer. Answers are cached until a forward finds
 * the instance gone. Thread-safe.
 */
@Component
public class PeerDirectory implements PeerInstances {

    private static final Logger log = LoggerFactory.getLogger(PeerDirectory.class);
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(3);

    private final RestProxyProperties properties;
    private final JsonMapper mapper;
    private final HttpClient client;
    /** Peer URL by replica id, learned from the peers. */
    private final Map<String, String> peerByReplicaId = new ConcurrentHashMap<>();
    /** Owner URL by kind, group and instance id. */
    private final Map<String, String> ownerByInstance = new ConcurrentHashMap<>();

    public PeerDirectory(RestProxyProperties properties, JsonMapper mapper) {
        this.properties = properties;
        this.mapper = mapper;
        this.client = HttpClient.newBuilder().connectTimeout(LOOKUP_TIMEOUT).build();
    }

    /** This replica's id. */
    public String replicaId() {
        return properties.replicaId();
    }

    /** The base URL of the peer that owns the instance of that kind, if a peer does. */
    Optional<String> ownerOf(InstanceKind kind, String group, String instanceId) {
        if (properties.peers().isEmpty()) {
            return Optional.empty();
        }
        String key = key(kind, group, instanceId);
        String cached = ownerByInstance.get(key);
        if (cached != null) {
            return Optional.of(cached);
        }
        Matcher generated = kind.generatedId().matcher(instanceId);
        if (generated.matches()) {
            String replica = generated.group(1);
            if (replica.equals(properties.replicaId())) {
                return Optional.empty();
            }
            Optional<String> peer = peerWithReplicaId(replica);
            peer.ifPresent(url -> ownerByInstance.put(key, url));
            return peer;
        }
        Optional<String> found = findOnPeers(kind, group, instanceId);
        found.ifPresent(url -> ownerByInstance.put(key, url));
        return found;
    }

    /** The peer that holds the consumer instance now, asking every peer (nothing cached). */
    @Override
    public Optional<String> findOnPeers(String group, String instanceId) {
        return findOnPeers(InstanceKind.CONSUMER, group, instanceId);
    }

    /** The peer that holds the instance of that kind now, asking every peer (nothing cached). */
    Optional<String> findOnPeers(InstanceKind kind, String group, String instanceId) {
        for (String peer : properties.peers()) {
            if (holds(peer, kind, group, instanceId)) {
                return Optional.of(peer);
            }
        }
        return Optional.empty();
    }

    /** Forgets a cached owner (the instance was not found there). */
    void forget(InstanceKind kind, String group, String instanceId) {
        ownerByInstance.remove(key(kind, group, instanceId));
    }

    private static String key(InstanceKind kind, String group, String instanceId) {
        return kind + "/" + group + "/" + instanceId;
    }

    private Optional<String> peerWithReplicaId(String replicaId) {
        String known = peerByReplicaId.get(replicaId);
        if (known != null) {
            return Optional.of(known);
        }
        for (String peer : properties.peers()) {
            String id = fetchReplicaId(peer);
            if (id != null) {
                peerByReplicaId.put(id, peer);
                if (id.equals(replicaId)) {
                    return Optional.of(peer);
                }
            }
        }
        return Optional.empty();
    }

    private String fetchReplicaId(String peer) {
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(peer
                + InternalController.REPLICA_PATH)).timeout(LOOKUP_TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return null;
            }
            JsonNode body = mapper.readTree(response.body());
            return body.path("replica_id").asString(null);
        } catch (IOException | RuntimeException e) {
            log.debug("Peer {} did not tell its replica id: {}", peer, e.toString());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private boolean holds(String peer, InstanceKind kind, String group, String instanceId) {
        try {
            String path = kind.internalPath().replace("{group}", encode(group))
                .replace("{instance}", encode(instanceId));
            HttpResponse<Void> response = client.send(HttpRequest.newBuilder(URI.create(peer + path))
                .timeout(LOOKUP_TIMEOUT).GET().build(), HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException | RuntimeException e) {
            log.debug("Peer {} did not answer for instance {} of {}: {}", peer, instanceId, group, e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
