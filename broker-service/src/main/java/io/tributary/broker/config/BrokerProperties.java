package io.tributary.broker.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The broker's static settings, bound from the {@code broker.*} properties (command line,
 * environment, application.yml, or a Kafka {@code server.properties} mapped by
 * {@link ServerPropertiesEnvironmentPostProcessor}).
 *
 * <p>Each name is Kafka's broker setting in Spring's relaxed form: Kafka's {@code log.dirs} is
 * {@code broker.log-dirs}, {@code log.segment.bytes} is {@code broker.log-segment-bytes},
 * {@code broker.id} stays {@code broker.id}. Units are in the names, as in Kafka (ms, bytes).
 * Defaults are Kafka 4's unless a comment says otherwise. Immutable.
 *
 * @param id                                 broker id, unique in the cluster ({@code broker.id} / {@code node.id})
 * @param rack                               rack of this broker, or null (blank counts as none)
 * @param listeners                          {@code NAME://host:port[,...]} to bind
 * @param advertisedListeners                what clients are told to connect to; defaults to the bound listeners
 * @param listenerSecurityProtocolMap        {@code NAME:PROTOCOL[,...]}, the security protocol of each listener
 *                                           name ({@code listener.security.protocol.map}); a name missing from it
 *                                           must itself be a protocol name. SSL and SASL listeners take their
 *                                           settings from {@link BrokerSecurityProperties}
 * @param dataDir                            base directory for defaults: log dirs and the embedded ZooKeeper live under it
 * @param logDirs                            partition log directories; defaults to {@code <data-dir>/kafka-logs}
 * @param zookeeperConnect                   ZooKeeper connect string; empty starts an embedded ZooKeeper
 * @param zookeeperSessionTimeoutMs          ZooKeeper session timeout
 * @param zookeeperConnectionTimeoutMs       how long to wait for a ZooKeeper connection at start
 * @param embeddedZookeeperPort              loopback port of the embedded ZooKeeper (0 for ephemeral)
 * @param embeddedZookeeperTickTimeMs        tick of the embedded ZooKeeper (session timeouts are 2 to 20 ticks)
 * @param numPartitions                      default partition count of auto-created topics
 * @param defaultReplicationFactor           default replication factor of auto-created topics
 * @param autoCreateTopicsEnable             whether Metadata requests may create topics
 * @param deleteTopicEnable                  whether DeleteTopics is allowed
 * @param logSegmentBytes                    segment size before a roll, bytes
 * @param logRollMs                          segment age before a roll, ms
 * @param logRollJitterMs                    random jitter subtracted from the roll age, ms
 * @param logRetentionMs                     retention by time, ms; -1 keeps forever
 * @param logRetentionBytes                  retention by size per partition, bytes; -1 unlimited
 * @param logRetentionCheckIntervalMs        how often retention runs, ms
 * @param logSegmentDeleteDelayMs            delay between a segment's removal from the log and its file deletion, ms
 * @param logIndexIntervalBytes              bytes between offset index entries
 * @param logIndexSizeMaxBytes               maximum offset index size, bytes
 * @param logFlushIntervalMessages           messages appended before an fsync (default: never, rely on replication)
 * @param logFlushIntervalMs                 time before an fsync, ms (default: never)
 * @param logFlushOffsetCheckpointIntervalMs how often the recovery point checkpoint is written, ms
 * @param logFlushSchedulerIntervalMs        how often logs are checked against {@code flush.ms}, ms
 *                                           ({@code log.flush.scheduler.interval.ms}; Kafka's default never checks)
 * @param replicaHighWatermarkCheckpointIntervalMs how often the high watermarks are checkpointed, ms
 *                                           ({@code replica.high.watermark.checkpoint.interval.ms})
 * @param logCleanupPolicy                   default {@code cleanup.policy}
 * @param logMessageTimestampType            default {@code message.timestamp.type}
 * @param logMessageTimestampBeforeMaxMs     default {@code message.timestamp.before.max.ms}
 * @param logMessageTimestampAfterMaxMs      default {@code message.timestamp.after.max.ms} (Kafka 4: one hour)
 * @param logPreallocate                     preallocate segment files
 * @param messageMaxBytes                    default {@code max.message.bytes}: largest record batch, bytes
 * @param socketRequestMaxBytes              largest request frame accepted, bytes
 * @param numNetworkThreads                  Netty event loop threads for the Kafka listeners
 * @param numIoThreads                       request handler threads: every request runs on one, never on a
 *                                           network thread ({@code num.io.threads})
 * @param queuedMaxRequests                  requests waiting for a handler thread before the network threads
 *                                           stop reading ({@code queued.max.requests})
 * @param connectionsMaxIdleMs               idle client connections are closed after this, ms
 *                                           ({@code connections.max.idle.ms})
 * @param maxConnections                     most connections the broker holds on all its listeners together
 *                                           ({@code max.connections}, KIP-402): at the limit a listener stops
 *                                           accepting until one closes; the inter-broker listener is exempt, and a
 *                                           connection there closes the least recently active one of another listener
 * @param maxConnectionsPerIp                most connections from one IP address ({@code max.connections.per.ip}):
 *                                           one more is closed once accepted; 0 only with overrides
 * @param maxConnectionsPerIpOverrides       {@code host:count[,...]}, per-address exceptions to the above, by IP
 *                                           or host name ({@code max.connections.per.ip.overrides}); names are
 *                                           resolved when the broker starts
 * @param maxConnectionCreationRate          new connections per second the broker accepts on all listeners but the
 *                                           inter-broker one ({@code max.connection.creation.rate}, KIP-612), measured
 *                                           over {@code quota.window.num} windows; above it accepting is delayed
 * @param refusedRequestLogIntervalMs        at least this long between two log lines of one kind of refused
 *                                           request (unsupported, malformed, refused config), ms; 0 logs each
 * @param numRecoveryThreadsPerDataDir       threads loading logs per log directory at start
 * @param minInsyncReplicas                  default {@code min.insync.replicas}
 * @param uncleanLeaderElectionEnable        default {@code unclean.leader.election.enable}
 * @param producerIdExpirationMs             idle time after which a producer's state is dropped, ms
 * @param producerIdExpirationCheckIntervalMs how often idle producers are looked for, ms
 * @param logCleanerEnable                   whether compacted topics are cleaned
 * @param logCleanerThreads                  log cleaner threads
 * @param logCleanerBackoffMs                pause of a cleaner thread with nothing to clean, ms
 * @param logCleanerDedupeBufferSize         memory of the cleaners' key-to-offset maps, bytes (all threads)
 * @param logCleanerIoBufferSize             read and write buffer of a cleaner thread, bytes
 * @param logCleanerIoBufferLoadFactor       how full a cleaner's offset map may get before it cleans what it holds
 * @param logCleanerIoMaxBytesPerSecond      read plus write rate of all cleaner threads together, bytes/s
 * @param backgroundThreads                  threads of background tasks: retention, flushes, checkpoints, expirations
 * @param logCleanerMinCleanableRatio        default {@code min.cleanable.dirty.ratio}
 * @param logCleanerDeleteRetentionMs        default {@code delete.retention.ms}: how long tombstones survive, ms
 * @param logCleanerMinCompactionLagMs       default {@code min.compaction.lag.ms}
 * @param logCleanerMaxCompactionLagMs       default {@code max.compaction.lag.ms}
 * @param offsetsTopicNumPartitions          partitions of {@code __consumer_offsets}
 * @param offsetsTopicReplicationFactor      replication factor of {@code __consumer_offsets} (Kafka's default 3;
 *                                           the single-node application.yml sets 1)
 * @param offsetsTopicSegmentBytes           {@code segment.bytes} of {@code __consumer_offsets}
 * @param offsetsRetentionMinutes            committed offsets of an empty group expire after this (KIP-211), minutes
 * @param offsetsRetentionCheckIntervalMs    how often expired offsets are looked for, ms
 * @param offsetsCommitTimeoutMs             how long a commit waits for its write to be replicated, ms
 * @param offsetMetadataMaxBytes             largest metadata string of a committed offset, bytes
 * @param groupInitialRebalanceDelayMs       how long a new group waits for more members before its first rebalance, ms
 * @param groupMinSessionTimeoutMs           smallest session timeout a member may ask for, ms
 * @param groupMaxSessionTimeoutMs           largest session timeout a member may ask for, ms
 * @param groupMaxSize                       most members a group may have
 * @param groupConsumerSessionTimeoutMs      session timeout of members of KIP-848 consumer groups, ms
 *                                           ({@code group.consumer.session.timeout.ms})
 * @param groupConsumerHeartbeatIntervalMs   how often those members heartbeat, ms ({@code group.consumer.heartbeat.interval.ms})
 * @param groupConsumerMaxSize               most members of a KIP-848 consumer group ({@code group.consumer.max.size})
 * @param groupConsumerAssignors             server-side assignors, {@code uniform} and {@code range} (or Kafka's class
 *                                           names); the first is the default ({@code group.consumer.assignors})
 * @param groupConsumerMigrationPolicy       online migration of groups between the classic and the consumer
 *                                           protocol: {@code bidirectional} (the default), {@code upgrade},
 *                                           {@code downgrade} or {@code disabled} ({@code group.consumer.migration.policy})
 * @param interBrokerListenerName            listener followers fetch from; defaults to the first listener
 * @param numReplicaFetchers                 fetcher threads per source broker ({@code num.replica.fetchers})
 * @param replicaLagTimeMaxMs                a follower not caught up for this long leaves the ISR, ms
 * @param replicaFetchMaxBytes               bytes a follower asks for per partition (soft, KIP-74)
 * @param replicaFetchResponseMaxBytes       bytes a follower asks for per fetch response
 * @param replicaFetchWaitMaxMs              how long a follower's fetch may wait at the leader for data, ms
 * @param replicaFetchMinBytes               bytes a follower's fetch waits for
 * @param replicaFetchBackoffMs              pause of a partition's fetching after an error, ms
 * @param replicaSocketTimeoutMs             how long a follower waits for a fetch response, ms
 * @param autoLeaderRebalanceEnable          whether the controller moves leaders back to preferred replicas
 * @param leaderImbalanceCheckIntervalSeconds how often it checks, s
 * @param leaderImbalancePerBrokerPercentage share of a broker's preferred partitions led elsewhere that triggers it, %
 * @param controlledShutdownEnable           whether a stopping broker first has its leaderships moved away
 * @param controlledShutdownMaxRetries       with the backoff, bounds how long it waits for that
 * @param controlledShutdownRetryBackoffMs   see above, ms
 * @param replicaSelectorClass               {@code replica.selector.class}: picks the replica a consumer reads
 *                                           from (KIP-392), e.g. {@code org.apache.kafka.common.replica.RackAwareReplicaSelector};
 *                                           none (the default) keeps consumers on leaders
 * @param consumerLagMetricsIntervalMs       how often the {@code kafka_consumergroup_lag} series of the groups
 *                                           coordinated here are refreshed, ms; 0 turns them off (Tributary's own)
 * @param fetchMaxBytes                      most bytes a consumer's fetch gets, whatever it asks for ({@code fetch.max.bytes},
 *                                           55 MiB); at least one batch still comes back (KIP-74)
 * @param quotaWindowNum                     windows a client quota's rate is measured over ({@code quota.window.num}, 11)
 * @param quotaWindowSizeSeconds             length of one such window, s ({@code quota.window.size.seconds}, 1)
 * @param maxIncrementalFetchSessionCacheSlots most incremental fetch sessions kept (KIP-227,
 *                                           {@code max.incremental.fetch.session.cache.slots}, 1000); 0 keeps none,
 *                                           so every fetch is full
 * @param maxRequestPartitionSizeLimit       most partitions one DescribeTopicPartitions answer describes, whatever
 *                                           the request asks ({@code max.request.partition.size.limit}, 2000; KIP-966)
 * @param requestTimeoutMs                   how long a request this broker serves for another broker may wait, ms
 *                                           ({@code request.timeout.ms}): a transaction marker's wait for its ISR
 * @param transactionStateLogNumPartitions   partitions of {@code __transaction_state} (50)
 * @param transactionStateLogReplicationFactor replication factor of {@code __transaction_state} (3; capped by the
 *                                           live brokers when it is created, with a warning)
 * @param transactionStateLogMinIsr          {@code min.insync.replicas} of {@code __transaction_state} (2; capped
 *                                           by its replication factor)
 * @param transactionStateLogSegmentBytes    {@code segment.bytes} of {@code __transaction_state} (100 MiB)
 * @param transactionMaxTimeoutMs            the largest {@code transaction.timeout.ms} a producer may ask for, ms
 *                                           ({@code transaction.max.timeout.ms}, 15 minutes)
 * @param transactionAbortTimedOutTransactionCleanupIntervalMs how often transactions past their timeout are
 *                                           looked for and aborted, ms (10 s)
 * @param transactionalIdExpirationMs        how long a transactional id may go unused, with no transaction open,
 *                                           before its coordinator removes it, ms ({@code transactional.id.expiration.ms},
 *                                           7 days)
 * @param transactionRemoveExpiredTransactionCleanupIntervalMs how often expired transactional ids are looked for,
 *                                           ms (1 hour)
 * @param transactionPartitionVerificationEnable whether a partition leader verifies a transaction's first
 *                                           batch with its coordinator before appending it (KIP-890 part 1; true)
 */
@ConfigurationProperties("broker")
public record BrokerProperties(
        @DefaultValue("0") int id,
        String rack,
        @DefaultValue("PLAINTEXT://127.0.0.1:9092") String listeners,
        String advertisedListeners,
        String listenerSecurityProtocolMap,
        @DefaultValue("data") String dataDir,
        List<String> logDirs,
        String zookeeperConnect,
        @DefaultValue("18000") int zookeeperSessionTimeoutMs,
        @DefaultValue("18000") int zookeeperConnectionTimeoutMs,
        @DefaultValue("2181") int embeddedZookeeperPort,
        @DefaultValue("2000") int embeddedZookeeperTickTimeMs,
        @DefaultValue("1") int numPartitions,
        @DefaultValue("1") short defaultReplicationFactor,
        @DefaultValue("true") boolean autoCreateTopicsEnable,
        @DefaultValue("true") boolean deleteTopicEnable,
        @DefaultValue("1073741824") int logSegmentBytes,
        @DefaultValue("604800000") long logRollMs,
        @DefaultValue("0") long logRollJitterMs,
        @DefaultValue("604800000") long logRetentionMs,
        @DefaultValue("-1") long logRetentionBytes,
        @DefaultValue("300000") long logRetentionCheckIntervalMs,
        @DefaultValue("60000") long logSegmentDeleteDelayMs,
        @DefaultValue("4096") int logIndexIntervalBytes,
        @DefaultValue("10485760") int logIndexSizeMaxBytes,
        @DefaultValue("9223372036854775807") long logFlushIntervalMessages,
        @DefaultValue("9223372036854775807") long logFlushIntervalMs,
        @DefaultValue("60000") long logFlushOffsetCheckpointIntervalMs,
        @DefaultValue("1000") long logFlushSchedulerIntervalMs,
        @DefaultValue("5000") long replicaHighWatermarkCheckpointIntervalMs,
        @DefaultValue("delete") String logCleanupPolicy,
        @DefaultValue("CreateTime") String logMessageTimestampType,
        @DefaultValue("9223372036854775807") long logMessageTimestampBeforeMaxMs,
        @DefaultValue("3600000") long logMessageTimestampAfterMaxMs,
        @DefaultValue("false") boolean logPreallocate,
        @DefaultValue("1048588") int messageMaxBytes,
        @DefaultValue("104857600") int socketRequestMaxBytes,
        @DefaultValue("3") int numNetworkThreads,
        @DefaultValue("8") int numIoThreads,
        @DefaultValue("500") int queuedMaxRequests,
        @DefaultValue("600000") long connectionsMaxIdleMs,
        @DefaultValue("2147483647") int maxConnections,
        @DefaultValue("2147483647") int maxConnectionsPerIp,
        @DefaultValue("") String maxConnectionsPerIpOverrides,
        @DefaultValue("2147483647") int maxConnectionCreationRate,
        @DefaultValue("10000") long refusedRequestLogIntervalMs,
        @DefaultValue("2") int numRecoveryThreadsPerDataDir,
        @DefaultValue("1") int minInsyncReplicas,
        @DefaultValue("false") boolean uncleanLeaderElectionEnable,
        @DefaultValue("86400000") int producerIdExpirationMs,
        @DefaultValue("600000") int producerIdExpirationCheckIntervalMs,
        @DefaultValue("true") boolean logCleanerEnable,
        @DefaultValue("1") int logCleanerThreads,
        @DefaultValue("15000") long logCleanerBackoffMs,
        @DefaultValue("134217728") long logCleanerDedupeBufferSize,
        @DefaultValue("524288") int logCleanerIoBufferSize,
        @DefaultValue("0.9") double logCleanerIoBufferLoadFactor,
        @DefaultValue("1.7976931348623157E308") double logCleanerIoMaxBytesPerSecond,
        @DefaultValue("10") int backgroundThreads,
        @DefaultValue("0.5") double logCleanerMinCleanableRatio,
        @DefaultValue("86400000") long logCleanerDeleteRetentionMs,
        @DefaultValue("0") long logCleanerMinCompactionLagMs,
        @DefaultValue("9223372036854775807") long logCleanerMaxCompactionLagMs,
        @DefaultValue("50") int offsetsTopicNumPartitions,
        @DefaultValue("3") short offsetsTopicReplicationFactor,
        @DefaultValue("104857600") int offsetsTopicSegmentBytes,
        @DefaultValue("10080") int offsetsRetentionMinutes,
        @DefaultValue("600000") long offsetsRetentionCheckIntervalMs,
        @DefaultValue("5000") int offsetsCommitTimeoutMs,
        @DefaultValue("4096") int offsetMetadataMaxBytes,
        @DefaultValue("3000") int groupInitialRebalanceDelayMs,
        @DefaultValue("6000") int groupMinSessionTimeoutMs,
        @DefaultValue("1800000") int groupMaxSessionTimeoutMs,
        @DefaultValue("2147483647") int groupMaxSize,
        @DefaultValue("45000") int groupConsumerSessionTimeoutMs,
        @DefaultValue("5000") int groupConsumerHeartbeatIntervalMs,
        @DefaultValue("2147483647") int groupConsumerMaxSize,
        @DefaultValue({"uniform", "range"}) List<String> groupConsumerAssignors,
        @DefaultValue("bidirectional") String groupConsumerMigrationPolicy,
        String interBrokerListenerName,
        @DefaultValue("1") int numReplicaFetchers,
        @DefaultValue("30000") long replicaLagTimeMaxMs,
        @DefaultValue("1048576") int replicaFetchMaxBytes,
        @DefaultValue("10485760") int replicaFetchResponseMaxBytes,
        @DefaultValue("500") int replicaFetchWaitMaxMs,
        @DefaultValue("1") int replicaFetchMinBytes,
        @DefaultValue("1000") int replicaFetchBackoffMs,
        @DefaultValue("30000") int replicaSocketTimeoutMs,
        @DefaultValue("true") boolean autoLeaderRebalanceEnable,
        @DefaultValue("300") int leaderImbalanceCheckIntervalSeconds,
        @DefaultValue("10") int leaderImbalancePerBrokerPercentage,
        @DefaultValue("true") boolean controlledShutdownEnable,
        @DefaultValue("3") int controlledShutdownMaxRetries,
        @DefaultValue("5000") long controlledShutdownRetryBackoffMs,
        String replicaSelectorClass,
        @DefaultValue("30000") long consumerLagMetricsIntervalMs,
        @DefaultValue("57671680") int fetchMaxBytes,
        @DefaultValue("1000") int maxIncrementalFetchSessionCacheSlots,
        @DefaultValue("11") int quotaWindowNum,
        @DefaultValue("1") int quotaWindowSizeSeconds,
        @DefaultValue("2000") int maxRequestPartitionSizeLimit,
        @DefaultValue("30000") int requestTimeoutMs,
        @DefaultValue("50") int transactionStateLogNumPartitions,
        @DefaultValue("3") short transactionStateLogReplicationFactor,
        @DefaultValue("2") int transactionStateLogMinIsr,
        @DefaultValue("104857600") int transactionStateLogSegmentBytes,
        @DefaultValue("900000") int transactionMaxTimeoutMs,
        @DefaultValue("10000") long transactionAbortTimedOutTransactionCleanupIntervalMs,
        @DefaultValue("604800000") int transactionalIdExpirationMs,
        @DefaultValue("3600000") long transactionRemoveExpiredTransactionCleanupIntervalMs,
        @DefaultValue("true") boolean transactionPartitionVerificationEnable) {

    public BrokerProperties {
        if (id < 0) {
            throw new IllegalArgumentException("broker.id must be >= 0, was " + id);
        }
        Map<String, SecurityProtocol> protocols = ListSettings.parseProtocolMap(listenerSecurityProtocolMap);
        List<EndPoint> bound = EndPoint.parseList(listeners, protocols);
        if (bound.isEmpty()) {
            throw new IllegalArgumentException("broker.listeners names no listener");
        }
        for (EndPoint e : EndPoint.parseList(advertisedListeners, protocols)) {
            if (bound.stream().noneMatch(b -> b.listenerName().equals(e.listenerName()))) {
                throw new IllegalArgumentException("broker.advertised-listeners names " + e.listenerName()
                    + ", which is not one of broker.listeners " + listeners);
            }
        }
        if (socketRequestMaxBytes <= 0) {
            throw new IllegalArgumentException("broker.socket-request-max-bytes must be positive");
        }
        if (numNetworkThreads <= 0 || numIoThreads <= 0 || numRecoveryThreadsPerDataDir <= 0 || logCleanerThreads <= 0
                || backgroundThreads <= 0) {
            throw new IllegalArgumentException("broker thread counts must be positive");
        }
        if (!(logCleanerIoBufferLoadFactor > 0 && logCleanerIoBufferLoadFactor <= 1) || !(logCleanerIoMaxBytesPerSecond > 0)) {
            throw new IllegalArgumentException("broker.log-cleaner-io-buffer-load-factor must be in (0, 1] and "
                + "broker.log-cleaner-io-max-bytes-per-second positive");
        }
        if (groupConsumerSessionTimeoutMs <= 0 || groupConsumerHeartbeatIntervalMs <= 0
                || groupConsumerHeartbeatIntervalMs >= groupConsumerSessionTimeoutMs || groupConsumerMaxSize < 1
                || groupConsumerAssignors == null || groupConsumerAssignors.isEmpty()) {
            throw new IllegalArgumentException("broker.group-consumer-heartbeat-interval-ms must be positive and below "
                + "broker.group-consumer-session-timeout-ms, broker.group-consumer-max-size positive, and "
                + "broker.group-consumer-assignors not empty");
        }
        if (groupConsumerMigrationPolicy == null || !List.of("disabled", "upgrade", "downgrade", "bidirectional")
                .contains(groupConsumerMigrationPolicy.toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("broker.group-consumer-migration-policy must be one of disabled, upgrade, "
                + "downgrade, bidirectional; was " + groupConsumerMigrationPolicy);
        }
        if (quotaWindowNum < 1 || quotaWindowSizeSeconds < 1) {
            throw new IllegalArgumentException("broker.quota-window-num and broker.quota-window-size-seconds must be "
                + "positive");
        }
        if (maxIncrementalFetchSessionCacheSlots < 0) {
            throw new IllegalArgumentException("broker.max-incremental-fetch-session-cache-slots must not be negative, was "
                + maxIncrementalFetchSessionCacheSlots);
        }
        if (maxRequestPartitionSizeLimit <= 0) {
            throw new IllegalArgumentException("broker.max-request-partition-size-limit must be positive, was "
                + maxRequestPartitionSizeLimit);
        }
        if (queuedMaxRequests <= 0) {
            throw new IllegalArgumentException("broker.queued-max-requests must be positive, was " + queuedMaxRequests);
        }
        if (transactionStateLogNumPartitions <= 0 || transactionStateLogReplicationFactor <= 0
                || transactionStateLogMinIsr <= 0 || transactionMaxTimeoutMs <= 0
                || transactionAbortTimedOutTransactionCleanupIntervalMs <= 0 || transactionalIdExpirationMs <= 0
                || transactionRemoveExpiredTransactionCleanupIntervalMs <= 0) {
            throw new IllegalArgumentException("broker.transaction-state-log-* and broker.transaction*-ms settings "
                + "must be positive");
        }
        if (transactionStateLogSegmentBytes < LogConfig.MIN_TOPIC_SEGMENT_BYTES) {
            throw new IllegalArgumentException("broker.transaction-state-log-segment-bytes must be at least "
                + LogConfig.MIN_TOPIC_SEGMENT_BYTES + ", was " + transactionStateLogSegmentBytes);
        }
        if (requestTimeoutMs <= 0) {
            throw new IllegalArgumentException("broker.request-timeout-ms must be positive, was " + requestTimeoutMs);
        }
        if (refusedRequestLogIntervalMs < 0) {
            throw new IllegalArgumentException("broker.refused-request-log-interval-ms must not be negative, was "
                + refusedRequestLogIntervalMs);
        }
        if (connectionsMaxIdleMs <= 0) {
            throw new IllegalArgumentException("broker.connections-max-idle-ms must be positive, was " + connectionsMaxIdleMs);
        }
        if (maxConnections < 0 || maxConnectionsPerIp < 0 || maxConnectionCreationRate < 0) {
            throw new IllegalArgumentException("broker.max-connections, max-connections-per-ip and "
                + "max-connection-creation-rate must not be negative, were " + maxConnections + ", " + maxConnectionsPerIp
                + " and " + maxConnectionCreationRate);
        }
        maxConnectionsPerIpOverrides = maxConnectionsPerIpOverrides == null ? "" : maxConnectionsPerIpOverrides.trim();
        Map<String, Integer> perIpOverrides = ListSettings.parseMaxConnectionsPerIpOverrides(maxConnectionsPerIpOverrides);
        if (maxConnectionsPerIp == 0 && perIpOverrides.isEmpty()) {
            throw new IllegalArgumentException("broker.max-connections-per-ip can be 0 only if "
                + "broker.max-connections-per-ip-overrides is set");
        }
        if (logSegmentBytes < 1024) {
            throw new IllegalArgumentException("broker.log-segment-bytes must be at least 1024, was " + logSegmentBytes);
        }
        if (offsetsTopicNumPartitions <= 0 || offsetsTopicReplicationFactor <= 0) {
            throw new IllegalArgumentException("broker.offsets-topic-num-partitions and -replication-factor must be positive");
        }
        if (offsetsTopicSegmentBytes < LogConfig.MIN_TOPIC_SEGMENT_BYTES) {
            // It becomes the offsets topic's segment.bytes, which has this minimum (KIP-1030).
            throw new IllegalArgumentException("broker.offsets-topic-segment-bytes must be at least "
                + LogConfig.MIN_TOPIC_SEGMENT_BYTES + ", was " + offsetsTopicSegmentBytes);
        }
        if (numReplicaFetchers <= 0 || replicaLagTimeMaxMs <= 0 || replicaFetchMaxBytes <= 0
                || replicaFetchResponseMaxBytes <= 0 || replicaSocketTimeoutMs <= replicaFetchWaitMaxMs) {
            throw new IllegalArgumentException("broker.num-replica-fetchers, replica-lag-time-max-ms and the replica fetch "
                + "sizes must be positive, and replica-socket-timeout-ms above replica-fetch-wait-max-ms");
        }
        if (interBrokerListenerName != null && bound.stream()
                .noneMatch(e -> e.listenerName().equals(interBrokerListenerName))) {
            throw new IllegalArgumentException("broker.inter-broker-listener-name " + interBrokerListenerName
                + " is not one of broker.listeners " + listeners);
        }
        if (consumerLagMetricsIntervalMs < 0) {
            throw new IllegalArgumentException("broker.consumer-lag-metrics-interval-ms must be >= 0, was "
                + consumerLagMetricsIntervalMs);
        }
        logDirs = logDirs == null ? List.of() : List.copyOf(logDirs);
        // An empty rack (e.g. from a node label that is not there) is no rack, as in Kafka.
        rack = rack == null || rack.isBlank() ? null : rack.trim();
    }

    /** The listener followers and the controller use between brokers. */
    public String interBrokerListener() {
        return interBrokerListenerName != null ? interBrokerListenerName : listenerEndPoints().get(0).listenerName();
    }

    /** Each listener name's security protocol from {@code listener-security-protocol-map} (upper case names). */
    public Map<String, SecurityProtocol> securityProtocolMap() {
        return ListSettings.parseProtocolMap(listenerSecurityProtocolMap);
    }

    /** {@code max.connections.per.ip.overrides} as a map from host name or IP address to its limit. */
    public Map<String, Integer> maxConnectionsPerIpOverridesMap() {
        return ListSettings.parseMaxConnectionsPerIpOverrides(maxConnectionsPerIpOverrides);
    }

    /**
     * Binds properties given as a map of {@code broker.*} keys, with the same rules and defaults
     * as the Spring environment. Used by tests and embedded brokers.
     *
     * @throws org.springframework.boot.context.properties.bind.BindException on a bad value
     */
    public static BrokerProperties bind(Map<String, ?> properties) {
        Binder binder = new Binder(new MapConfigurationPropertySource(properties));
        return binder.bindOrCreate("broker", Bindable.of(BrokerProperties.class));
    }

    /** The listeners to bind. */
    public List<EndPoint> listenerEndPoints() {
        return EndPoint.parseList(listeners, securityProtocolMap());
    }

    /** The advertised listeners, or empty when they default to the bound listeners. */
    public List<EndPoint> advertisedEndPoints() {
        return EndPoint.parseList(advertisedListeners, securityProtocolMap());
    }

    /** The log directories, absolute: {@code log-dirs} if set, else {@code <data-dir>/kafka-logs}. */
    public List<Path> logDirPaths() {
        if (logDirs.isEmpty()) {
            return List.of(Path.of(dataDir, "kafka-logs").toAbsolutePath());
        }
        return logDirs.stream().map(String::trim).filter(s -> !s.isEmpty())
            .map(s -> Path.of(s).toAbsolutePath()).toList();
    }

    /** Where the embedded ZooKeeper keeps its data. */
    public Path embeddedZookeeperDir() {
        return Path.of(dataDir, "zookeeper").toAbsolutePath();
    }

    /** Whether the broker starts its own ZooKeeper. */
    public boolean useEmbeddedZookeeper() {
        return zookeeperConnect == null || zookeeperConnect.isBlank();
    }
}
