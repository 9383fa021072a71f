package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaManager;
import io.tributary.broker.replica.ProduceResult;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.transaction.AddPartitionsToTxnManager;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Produce (served v3-13, advertised from v0 for old librdkafka, KAFKA-18659): appends each
 * partition's batches through the {@link ReplicaManager} and answers with the base offset,
 * log append time and log start offset per partition, or the partition's error code and, for
 * invalid records, the records at fault (KIP-467). v13 names topics by id (UNKNOWN_TOPIC_ID when
 * unknown). acks=0 gets no response; if such a produce fails the connection is closed, as Kafka
 * does, so the client notices. Transactional batches need the request's {@code transactional.id}
 * and WRITE on it (TRANSACTIONAL_ID_AUTHORIZATION_FAILED otherwise, KIP-98); the partition log
 * checks they belong to the producer's open transaction. With
 * {@code transaction.partition.verification.enable} (the default), a transaction's first batch on
 * a partition is appended only once its coordinator confirms the partition is in the transaction
 * ({@link ProduceVerification}, KIP-890 part 1), on a request handler thread.
 */
public final class ProduceHandler extends VersionedHandler {

    private final ReplicaManager replicaManager;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;
    /** {@code producer_byte_rate} (KIP-13): the produced bytes count after the append, as in Kafka. */
    private final ClientQuotaManager produceQuota;
    /** Null when {@code transaction.partition.verification.enable} is off. */
    private final ProduceVerification verification;

    /**
     * @param verifier        the coordinator check of transactional produces, or null to append them unverified
     * @param handlerExecutor runs an append whose verification was answered over the network on a
     *                        request handler thread
     */
    public ProduceHandler(ReplicaManager replicaManager, MetadataCache metadataCache, BrokerAuthorizer authorizer,
                          ClientQuotaManager produceQuota, AddPartitionsToTxnManager verifier, Executor handlerExecutor) {
        super(ApiKeys.PRODUCE, 3, 13);
        this.produceQuota = produceQuota;
        this.replicaManager = replicaManager;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
        this.verification = verifier == null ? null : new ProduceVerification(replicaManager, verifier, handlerExecutor);
    }

    @Override
    public short advertisedMinVersion() {
        return 0;
    }

    /** A partition of the request: how the response names it, and its records. */
    private record Entry(String topicName, Uuid topicId, int partition, TopicPartition tp, MemoryRecords records) {
    }

    /** How a produce's records are appended: {@link ReplicaManager#appendRecords} or its non-blocking form. */
    @FunctionalInterface
    private interface Appender {
        /** @return the results per partition, or null when the records must be appended another way */
        CompletableFuture<Map<TopicPartition, ProduceResult>> append(long timeoutMs, short acks,
                                                                     Map<TopicPartition, MemoryRecords> entries);
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ProduceRequest request = (ProduceRequest) r;
        if (verification != null && request.transactionalId() != null) {
            return produce(context, request, (timeoutMs, acks, entries) -> verification.append(request.transactionalId(),
                context.apiVersion() > 10, timeoutMs, acks, entries));
        }
        return produce(context, request, replicaManager::appendRecords);
    }

    @Override
    public boolean mayHandleWithoutBlocking() {
        return true;
    }

    /**
     * Serves the produce on the network thread when every partition can take its records without
     * waiting ({@link ReplicaManager#tryAppendRecordsWithoutBlocking}). Not with an authorizer: its
     * decisions may be logged, and logging may block. Not for a transactional produce, which may
     * need verifying with its coordinator.
     */
    @Override
    public CompletableFuture<Response> handleWithoutBlocking(RequestContext context, AbstractRequest r) {
        if (authorizer.enabled() || (verification != null && ((ProduceRequest) r).transactionalId() != null)) {
            return null;
        }
        return produce(context, (ProduceRequest) r, replicaManager::tryAppendRecordsWithoutBlocking);
    }

    private CompletableFuture<Response> produce(RequestContext context, ProduceRequest request, Appender appender) {
        short acks = request.acks();
        short version = context.apiVersion();
        Errors refused = refusedWhole(context, request);
        if (refused != Errors.NONE) {
            return CompletableFuture.completedFuture(acks == 0 ? Response.close("acks=0 produce refused: " + refused)
                : Responses.of(context, request.getErrorResponse(0, refused.exception())));
        }
        List<Entry> entries = new ArrayList<>();
        Map<Entry, ProduceResult> early = new IdentityHashMap<>();
        Map<TopicPartition, MemoryRecords> toAppend = new LinkedHashMap<>();
        // WRITE on each topic; null (everything allowed) without an authorizer, which costs no lookups.
        java.util.Set<String> writable = !authorizer.enabled() ? null
            : authorizer.filter(context, AclOperation.WRITE, ResourceType.TOPIC,
                request.data().topicData().stream().map(t -> version >= 13
                    ? metadataCache.topicName(t.topicId()).orElse(null) : t.name())
                    .filter(java.util.Objects::nonNull).toList());
        for (ProduceRequestData.TopicProduceData topic : request.data().topicData()) {
            String name = topic.name();
            if (version >= 13) {
                name = metadataCache.topicName(topic.topicId()).orElse(null);
            }
            for (ProduceRequestData.PartitionProduceData p : topic.partitionData()) {
                TopicPartition tp = name == null ? null : new TopicPartition(name, p.index());
                Entry entry = new Entry(topic.name(), topic.topicId(), p.index(), tp, (MemoryRecords) p.records());
                entries.add(entry);
                ProduceResult problem = name != null && writable != null && !writable.contains(name)
                    ? ProduceResult.error(Errors.TOPIC_AUTHORIZATION_FAILED, null)
                    : precheck(entry, acks, version);
                if (problem != null) {
                    early.put(entry, problem);
                } else if (toAppend.putIfAbsent(tp, entry.records()) != null) {
                    early.put(entry, ProduceResult.error(Errors.INVALID_REQUEST, "Partition " + tp + " appears twice"));
                }
            }
        }
        CompletableFuture<Map<TopicPartition, ProduceResult>> appended = appender.append(request.timeout(), acks, toAppend);
        if (appended == null) {
            return null;
        }
        // Kafka counts the whole request against producer_byte_rate, refused partitions too.
        long produced = 0;
        for (Entry entry : entries) {
            produced += entry.records() == null ? 0 : entry.records().sizeInBytes();
        }
        long producedBytes = produced;
        return appended.thenApply(results -> {
            int throttleMs = produceQuota.recordAndGetThrottleTimeMs(context.principal().getName(), context.clientId(),
                producedBytes);
            ProduceResponseData data = new ProduceResponseData().setThrottleTimeMs(throttleMs);
            LeaderHints hints = new LeaderHints(metadataCache, context.listenerName());
            Map<String, ProduceResponseData.TopicProduceResponse> byTopic = new LinkedHashMap<>();
            boolean anyError = false;
            for (Entry entry : entries) {
                ProduceResult result = early.containsKey(entry) ? early.get(entry) : results.get(entry.tp());
                anyError |= result.error() != Errors.NONE;
                String key = entry.topicName() + "/" + entry.topicId();
                ProduceResponseData.TopicProduceResponse topic = byTopic.computeIfAbsent(key, k -> {
                    ProduceResponseData.TopicProduceResponse t = new ProduceResponseData.TopicProduceResponse()
                        .setName(entry.topicName()).setTopicId(entry.topicId());
                    data.responses().add(t);
                    return t;
                });
                ProduceResponseData.PartitionProduceResponse partition = new ProduceResponseData.PartitionProduceResponse()
                    .setIndex(entry.partition())
                    .setErrorCode(result.error().code())
                    .setErrorMessage(result.error() == Errors.NONE ? null : result.errorMessage())
                    .setBaseOffset(result.baseOffset())
                    .setLogAppendTimeMs(result.logAppendTime())
                    .setLogStartOffset(result.logStartOffset());
                if (version >= 8) {
                    result.recordErrors().forEach(e -> partition.recordErrors().add(
                    new ProduceResponseData.BatchIndexAndErrorMessage().setBatchIndex(e.batchIndex)
                        .setBatchIndexErrorMessage(e.message)));
                }
                if (version >= 10 && LeaderHints.wanted(result.error())) {
                    hints.leaderOf(entry.tp()).ifPresent(leader -> partition.setCurrentLeader(
                        new ProduceResponseData.LeaderIdAndEpoch().setLeaderId(leader.leader())
                            .setLeaderEpoch(leader.leaderEpoch())));
                }
                topic.partitionResponses().add(partition);
            }
            if (version >= 10) {
                hints.nodes().forEach(node -> data.nodeEndpoints().add(new ProduceResponseData.NodeEndpoint()
                    .setNodeId(node.id()).setHost(node.host()).setPort(node.port()).setRack(node.rack())));
            }
            if (acks == 0) {
                return anyError ? Response.close("acks=0 produce failed") : throttled(Response.none(), throttleMs);
            }
            return throttled(Responses.of(context, new ProduceResponse(data)), throttleMs);
        });
    }

    private static Response throttled(Response response, int throttleMs) {
        return throttleMs > 0 ? new Response.Throttled(response, throttleMs) : response;
    }

    /**
     * What refuses the whole request, as Kafka's {@code KafkaApis.handleProduceRequest} and
     * {@code ReplicaManager.handleProduceAppend} do before any partition is looked at:
     * transactional records without the request's transactional id or WRITE on it
     * (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), or transactional records of more than one producer id
     * and epoch (INVALID_PRODUCER_ID_MAPPING); NONE otherwise.
     */
    private Errors refusedWhole(RequestContext context, ProduceRequest request) {
        // Corrupt partitions are left out here and refused on their own by precheck: one of them cannot hide
        // another partition's transactional records from the checks below.
        List<RecordBatch> transactional = new ArrayList<>();
        for (ProduceRequestData.TopicProduceData topic : request.data().topicData()) {
            for (ProduceRequestData.PartitionProduceData p : topic.partitionData()) {
                if (p.records() == null) {
                    continue;
                }
                for (RecordBatch batch : ProducedBatches.readable(p.records())) {
                    if (batch.isTransactional()) {
                        transactional.add(batch);
                    }
                }
            }
        }
        if (transactional.isEmpty()) {
            return Errors.NONE;
        }
        if (request.transactionalId() == null || (authorizer.enabled()
                && !authorizer.authorize(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID,
                    request.transactionalId()))) {
            return Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
        }
        List<RecordBatch> withIds = transactional.stream().filter(RecordBatch::hasProducerId).toList();
        for (RecordBatch batch : withIds) {
            if (withIds.get(0).producerId() != batch.producerId() || withIds.get(0).producerEpoch() != batch.producerEpoch()) {
                return Errors.INVALID_PRODUCER_ID_MAPPING;
            }
        }
        return Errors.NONE;
    }

    /** A partition's refusal before its append: unknown topic id, acks, records the codec refuses; null when none. */
    private static ProduceResult precheck(Entry entry, short acks, short version) {
        if (entry.tp() == null) {
            return ProduceResult.error(Errors.UNKNOWN_TOPIC_ID, "Unknown topic id " + entry.topicId());
        }
        if (acks != -1 && acks != 0 && acks != 1) {
            return ProduceResult.error(Errors.INVALID_REQUIRED_ACKS, "acks must be -1, 0 or 1, was " + acks);
        }
        if (entry.records() == null) {
            return ProduceResult.error(Errors.INVALID_RECORD, "No records");
        }
        ProducedBatches.Refusal refusal = ProducedBatches.check(version, entry.records());
        return refusal == null ? null : ProduceResult.error(refusal.error(), refusal.message());
    }
}
