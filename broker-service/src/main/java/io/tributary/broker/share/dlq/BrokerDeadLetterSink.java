package io.tributary.broker.share.dlq;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.replica.ProduceResult;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.replica.InterBrokerSender;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;

/**
 * {@link DeadLetterSink} through the broker's produce path: a partition led here is appended with the
 * {@link ReplicaManager} (as a client's produce, acks=all); one led elsewhere gets a Produce request
 * (acks=all, no producer id) over the inter-broker listener. Blocks up to about twice
 * {@code timeoutMs}; call on the dead-letter thread.
 */
public final class BrokerDeadLetterSink implements DeadLetterSink {

    private final int brokerId;
    private final ReplicaManager replicaManager;
    private final MetadataCache metadataCache;
    private final InterBrokerSender sender;
    private final int timeoutMs;

    /**
     * @param sender    sends requests to another broker (its own connections)
     * @param timeoutMs how long an append waits for its in-sync replicas, ms
     */
    public BrokerDeadLetterSink(int brokerId, ReplicaManager replicaManager, MetadataCache metadataCache,
                                InterBrokerSender sender, int timeoutMs) {
        this.brokerId = brokerId;
        this.replicaManager = replicaManager;
        this.metadataCache = metadataCache;
        this.sender = sender;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public Errors append(TopicPartition tp, Uuid topicId, MemoryRecords records) {
        Optional<LeaderAndIsr> state = metadataCache.partitionState(tp);
        if (state.isEmpty() || !state.get().hasLeader()) {
            return Errors.LEADER_NOT_AVAILABLE;
        }
        int leader = state.get().leader();
        try {
            if (leader == brokerId) {
                ProduceResult result = replicaManager.appendRecords(timeoutMs, (short) -1, Map.of(tp, records))
                    .get(2L * timeoutMs, TimeUnit.MILLISECONDS).get(tp);
                return result == null ? Errors.UNKNOWN_SERVER_ERROR : result.error();
            }
            ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
            topics.add(new ProduceRequestData.TopicProduceData().setName(tp.topic()).setTopicId(topicId)
                .setPartitionData(java.util.List.of(new ProduceRequestData.PartitionProduceData()
                    .setIndex(tp.partition()).setRecords(records))));
            AbstractResponse response = sender.send(leader, ProduceRequest.builder(new ProduceRequestData()
                    .setAcks((short) -1).setTimeoutMs(timeoutMs).setTopicData(topics)))
                .get(2L * timeoutMs, TimeUnit.MILLISECONDS);
            return errorOf((ProduceResponse) response, tp);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while appending to " + tp, e);
        } catch (ExecutionException | TimeoutException e) {
            return Errors.REQUEST_TIMED_OUT;
        }
    }

    private static Errors errorOf(ProduceResponse response, TopicPartition tp) {
        for (ProduceResponseData.TopicProduceResponse topic : response.data().responses()) {
            for (ProduceResponseData.PartitionProduceResponse partition : topic.partitionResponses()) {
                if (partition.index() == tp.partition()) {
                    return Errors.forCode(partition.errorCode());
                }
            }
        }
        return Errors.UNKNOWN_SERVER_ERROR;
    }
}
