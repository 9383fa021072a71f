package io.tributary.broker.cluster;

/**
 * The ZooKeeper layout, Kafka's classic one (see DESIGN.md section 5):
 * <pre>
 * /cluster/id                                   {"version":"1","id":"..."}
 * /brokers/ids/{id}                  ephemeral  host, port, endpoints, rack
 * /brokers/topics/{topic}                       {"version":3,"topic_id":"...","partitions":{"0":[1,2]},...}
 * /brokers/topics/{topic}/partitions/{p}/state  {"controller_epoch":1,"leader":1,"leader_epoch":0,"isr":[1,2],"version":1}
 * /controller                        ephemeral  {"version":2,"brokerid":1,"timestamp":"..."}
 * /controller_epoch                             fencing counter
 * /config/topics/{topic}                        {"version":1,"config":{...}}
 * /config/users/{sanitized user}                {"version":1,"config":{"SCRAM-SHA-512":"salt=...,stored_key=...,server_key=...,iterations=4096",...}}
 * /config/brokers/{id | &lt;default&gt;}              {"version":1,"config":{"log.retention.ms":"3600000",...}}   dynamic broker configs
 * /config/changes/config_change_{seq}           {"version":2,"entity_path":"users/{sanitized user}"}
 * /admin/delete_topics/{topic}                  pending deletions
 * /latest_producer_id_block                     {"version":1,"broker":1,"block_start":"0","block_end":"999"}
 * /kafka-acl/{ResourceType}/{name}              {"version":1,"acls":[{"principal":"User:alice","permissionType":"Allow","operation":"Read","host":"*"}]}
 * /kafka-acl-extended/prefixed/{ResourceType}/{name}   the same, for prefixed resource patterns
 * /kafka-acl-changes/acl_changes_{seq}          TOPIC:orders   (a literal pattern changed; plain UTF-8)
 * /kafka-acl-extended-changes/acl_changes_{seq} {"version":1,"resourceType":"TOPIC","name":"orders","patternType":"PREFIXED"}
 * </pre>
 * The change notifications ({@code config_change_*}, {@code acl_changes_*}) are written for Kafka's
 * brokers and tools; these brokers do not read them (they watch the data nodes) and delete them once
 * older than 15 minutes ({@link ChangeNotificationPurger}). Topic config changes write none.
 */
public final class ZkPaths {

    public static final String CLUSTER_ID = "/cluster/id";
    public static final String BROKERS = "/brokers";
    public static final String BROKER_IDS = "/brokers/ids";
    public static final String TOPICS = "/brokers/topics";
    public static final String CONTROLLER = "/controller";
    public static final String CONTROLLER_EPOCH = "/controller_epoch";
    public static final String CONFIG_TOPICS = "/config/topics";
    public static final String CONFIG_USERS = "/config/users";
    /** Dynamic broker configs: one node per broker id, and {@code <default>} for every broker. */
    public static final String CONFIG_BROKERS = "/config/brokers";
    public static final String CONFIG_CHANGES = "/config/changes";
    /** Prefix of the persistent sequential change notification nodes (ZooKeeper appends 10 digits). */
    public static final String CONFIG_CHANGE_PREFIX = CONFIG_CHANGES + "/config_change_";
    public static final String DELETE_TOPICS = "/admin/delete_topics";
    public static final String PRODUCER_ID_BLOCK = "/latest_producer_id_block";
    /** Root of the ACLs of literal resource patterns. */
    public static final String KAFKA_ACL = "/kafka-acl";
    /** Root of the ACLs of other resource patterns, one child per pattern type in lower case ({@code prefixed}). */
    public static final String KAFKA_ACL_EXTENDED = "/kafka-acl-extended";
    /** Change notifications of literal ACLs. */
    public static final String KAFKA_ACL_CHANGES = "/kafka-acl-changes";
    /** Change notifications of the ACLs under {@link #KAFKA_ACL_EXTENDED}. */
    public static final String KAFKA_ACL_EXTENDED_CHANGES = "/kafka-acl-extended-changes";
    /** Name prefix of the persistent sequential ACL change notification nodes (ZooKeeper appends 10 digits). */
    public static final String ACL_CHANGE_SEQUENCE_PREFIX = "acl_changes_";

    /** Persistent paths created at start when missing. */
    public static final String[] PERSISTENT = {BROKER_IDS, TOPICS, CONFIG_TOPICS, CONFIG_USERS, CONFIG_BROKERS,
        CONFIG_CHANGES, DELETE_TOPICS, "/cluster"};

    private ZkPaths() {
    }

    public static String broker(int id) {
        return BROKER_IDS + "/" + id;
    }

    public static String topic(String topic) {
        return TOPICS + "/" + topic;
    }

    public static String partitions(String topic) {
        return topic(topic) + "/partitions";
    }

    public static String partition(String topic, int partition) {
        return partitions(topic) + "/" + partition;
    }

    public static String partitionState(String topic, int partition) {
        return partition(topic, partition) + "/state";
    }

    public static String topicConfig(String topic) {
        return CONFIG_TOPICS + "/" + topic;
    }

    /**
     * @param sanitizedUser the user name as {@code org.apache.kafka.common.utils.internals.Sanitizer} encodes it
     */
    public static String userConfig(String sanitizedUser) {
        return CONFIG_USERS + "/" + sanitizedUser;
    }

    public static String deleteTopic(String topic) {
        return DELETE_TOPICS + "/" + topic;
    }
}
