package io.tributary.broker.quota;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who a client quota applies to, in Kafka's ZooKeeper-mode entities (KIP-55, KIP-546): a user, a
 * client id, or a user's client id, each a name or the default ({@link #DEFAULT}; {@code <default>}
 * in ZooKeeper and null on the wire); null where the entity has no such part.
 *
 * @param user     the user (a principal's name), {@link #DEFAULT}, or null
 * @param clientId the client id, {@link #DEFAULT}, or null
 */
public record ClientQuotaEntity(String user, String clientId) {

    /** How ZooKeeper names a default entity, as Kafka's {@code ZooKeeperInternals.DEFAULT_STRING}. */
    public static final String ZK_DEFAULT = "<default>";

    /**
     * The default entity, here: no name a client can have (a client id or user literally named
     * {@code <default>} is a name like any other, stored sanitized, as in Kafka).
     */
    public static final String DEFAULT = "\u0000default";

    public ClientQuotaEntity {
        if (user == null && clientId == null) {
            throw new IllegalArgumentException("a client quota entity needs a user or a client id");
        }
    }

    /** The entity as the wire names it: entity type to name, null for a default. */
    public Map<String, String> toWire() {
        Map<String, String> out = new LinkedHashMap<>();
        if (user != null) {
            out.put(org.apache.kafka.common.quota.ClientQuotaEntity.USER, user.equals(DEFAULT) ? null : user);
        }
        if (clientId != null) {
            out.put(org.apache.kafka.common.quota.ClientQuotaEntity.CLIENT_ID, clientId.equals(DEFAULT) ? null : clientId);
        }
        return out;
    }
}
