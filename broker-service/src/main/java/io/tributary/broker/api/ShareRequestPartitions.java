package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.share.ShareAcknowledgement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The partitions of a ShareFetch or ShareAcknowledge (KIP-932) resolved from topic ids and
 * checked as Kafka checks them: an unknown topic id is answered UNKNOWN_TOPIC_ID, a topic the
 * principal may not READ TOPIC_AUTHORIZATION_FAILED; the others are {@link #accepted}. One per
 * request; not thread-safe.
 */
final class ShareRequestPartitions {

    private final MetadataCache metadataCache;
    private final Map<Uuid, String> names = new LinkedHashMap<>();
    private final Set<String> readable;
    private final Map<TopicIdPartition, Errors> refused = new LinkedHashMap<>();

    /** @param topicIds every topic id the request names */
    ShareRequestPartitions(RequestContext context, MetadataCache metadataCache, BrokerAuthorizer authorizer,
                           Iterable<Uuid> topicIds) {
        this.metadataCache = metadataCache;
        for (Uuid id : topicIds) {
            metadataCache.topicName(id).ifPresent(name -> names.put(id, name));
        }
        this.readable = authorizer.enabled()
            ? authorizer.filter(context, AclOperation.READ, ResourceType.TOPIC, new ArrayList<>(new LinkedHashSet<>(names.values())))
            : null;
    }

    /** The partition with its topic's name, or null when refused (and remembered in {@link #refused}). */
    TopicIdPartition accept(Uuid topicId, int partition) {
        String name = names.get(topicId);
        if (name == null) {
            refused.put(new TopicIdPartition(topicId, partition, null), Errors.UNKNOWN_TOPIC_ID);
            return null;
        }
        TopicIdPartition tip = new TopicIdPartition(topicId, partition, name);
        if (readable != null && !readable.contains(name)) {
            refused.put(tip, Errors.TOPIC_AUTHORIZATION_FAILED);
            return null;
        }
        if (metadataCache.partitionState(tip.topicPartition()).isEmpty()) {
            refused.put(tip, Errors.UNKNOWN_TOPIC_OR_PARTITION);
            return null;
        }
        return tip;
    }

    /** The partition named, known or not (for forgotten partitions: no check). */
    TopicIdPartition named(Uuid topicId, int partition) {
        return new TopicIdPartition(topicId, partition, names.get(topicId));
    }

    /** The partitions refused, with their errors, in request order. */
    Map<TopicIdPartition, Errors> refused() {
        return refused;
    }

    /** Whether acknowledgement types use RENEW (4), which only v2 requests may (KIP-1222). */
    static boolean renewRefused(short version, List<Byte> acknowledgeTypes) {
        return version < 2 && acknowledgeTypes.contains(ShareAcknowledgement.RENEW);
    }
}
