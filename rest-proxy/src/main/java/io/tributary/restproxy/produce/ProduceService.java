package io.tributary.restproxy.produce;

import io.tributary.restproxy.error.InvalidArgumentException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.PartitionNotFoundException;
import io.tributary.restproxy.error.TopicNotFoundException;
import io.tributary.restproxy.metadata.ClusterMetadata;
import io.tributary.restproxy.metrics.RecordMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.springframework.stereotype.Service;

/**
 * Sends decoded records through the shared producer and reports where each landed. Knows nothing
 * of HTTP. Thread-safe: the Kafka producer is, and records of concurrent requests share its batches.
 */
@Service
public class ProduceService {

    private final Producer<byte[], byte[]> producer;
    private final ClusterMetadata metadata;
    private final RecordMetrics metrics;

    public ProduceService(Producer<byte[], byte[]> producer, ClusterMetadata metadata, RecordMetrics metrics) {
        this.producer = producer;
        this.metadata = metadata;
        this.metrics = metrics;
    }

    /**
     * Sends {@code records} to {@code topic} in order and completes with one result per record,
     * in the same order: where it landed, or the Kafka exception it failed with
     * ({@link PartitionOffset#failure}), while the others still succeed, as in the Confluent proxy.
     *
     * @throws TopicNotFoundException when the topic does not exist (and the broker does not create it)
     * @throws PartitionNotFoundException when a record names a partition it lacks
     * @throws InvalidArgumentException for a topic name Kafka refuses
     */
    public CompletableFuture<List<PartitionOffset>> produce(String topic, List<OutgoingRecord> records) {
        int partitionCount = partitionCount(topic);
        for (OutgoingRecord record : records) {
            partitionCount = checkPartition(topic, record.partition(), partitionCount);
        }
        List<CompletableFuture<PartitionOffset>> results = new ArrayList<>(records.size());
        for (OutgoingRecord record : records) {
            results.add(send("v2", topic, record, null).handle((metadata, exception) -> exception == null
                ? PartitionOffset.success(metadata.partition(), metadata.offset())
                : PartitionOffset.failure(exception)));
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
            .thenApply(ignored -> results.stream().map(CompletableFuture::join).toList());
    }

    /**
     * Checks that {@code topic} exists and has {@code partition} (null: any).
     *
     * @return the topic's partition count
     * @throws TopicNotFoundException when the topic does not exist
     * @throws PartitionNotFoundException when it lacks {@code partition}
     */
    public int checkTopic(String topic, Integer partition) {
        return checkPartition(topic, partition, partitionCount(topic));
    }

    /**
     * Sends one record; completes with where it landed, or with the producer's exception.
     *
     * @param api         the API it came through, for metrics ({@code v2}, {@code v3})
     * @param timestampMs the record's timestamp, or null for the producer's clock
     */
    public CompletableFuture<RecordMetadata> send(String api, String topic, OutgoingRecord record, Long timestampMs) {
        CompletableFuture<RecordMetadata> result = new CompletableFuture<>();
        try {
            ProducerRecord<byte[], byte[]> producerRecord = new ProducerRecord<>(topic, record.partition(), timestampMs,
                record.key(), record.value(), record.headers());
            producer.send(producerRecord, (recordMetadata, exception) -> {
                if (exception == null) {
                    metrics.produced(api, record.size());
                    result.complete(recordMetadata);
                } else {
                    result.completeExceptionally(exception);
                }
            });
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /**
     * Checks {@code partition} against the producer's partition count and, when it is beyond it,
     * against the cluster's (partitions added since the producer's metadata was fetched: the
     * producer refreshes its metadata itself when it sends there).
     *
     * @return the partition count that was checked against
     */
    private int checkPartition(String topic, Integer partition, int partitionCount) {
        if (partition == null || (partition >= 0 && partition < partitionCount)) {
            return partitionCount;
        }
        int current = partition < 0 ? partitionCount : metadata.partitionCount(topic);
        if (partition < 0 || partition >= current) {
            throw new PartitionNotFoundException("Partition " + partition + " of topic " + topic
                + " not found: the topic has " + current + " partitions.");
        }
        return current;
    }

    /**
     * The topic's partition count from the producer's metadata (a Metadata request the first
     * time, which creates the topic when the broker auto-creates topics).
     */
    private int partitionCount(String topic) {
        List<PartitionInfo> partitions;
        try {
            partitions = producer.partitionsFor(topic);
        } catch (InvalidTopicException e) {
            throw new InvalidArgumentException("Invalid topic name '" + topic + "': " + e.getMessage(), e);
        } catch (TimeoutException | UnknownTopicOrPartitionException e) {
            if (!metadata.topicExists(topic)) {
                throw new TopicNotFoundException(topic);
            }
            throw KafkaErrors.wrap(e);
        } catch (RuntimeException e) {
            throw KafkaErrors.wrap(e);
        }
        if (partitions == null || partitions.isEmpty()) {
            throw new TopicNotFoundException(topic);
        }
        return partitions.size();
    }
}
