package io.tributary.restproxy.stream;

import io.tributary.restproxy.config.KafkaConsumerFactory;
import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.error.CapacityExceededException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.format.EmbeddedFormat;
import io.tributary.restproxy.format.RecordView;
import io.tributary.restproxy.metadata.ClusterMetadata;
import io.tributary.restproxy.metrics.RecordMetrics;
import io.tributary.restproxy.security.Callers;
import io.tributary.restproxy.security.KafkaLogin;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Service;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams a topic's records as Server-Sent Events: one {@code record} event per record, whose id
 * holds every partition's next offset ({@link StreamPositions}), so a reconnect with
 * {@code Last-Event-ID} resumes exactly after the last event received. Each stream owns an
 * assign-mode Kafka consumer (no group) polled by its own thread, and stops when the client goes
 * away (noticed at the next event or the heartbeat comment sent every 15 s).
 * At most {@code rest-proxy.max-streams} streams run at once. Thread-safe.
 */
@Service
public class RecordStreamer {

    /** Where a stream starts on partitions the {@code Last-Event-ID} does not name. */
    public enum Start { BEGINNING, END }

    private static final Logger log = LoggerFactory.getLogger(RecordStreamer.class);
    private static final long HEARTBEAT_MS = 15_000;

    private final ClusterMetadata metadata;
    private final KafkaConsumerFactory consumers;
    private final Callers callers;
    private final JsonMapper mapper;
    private final RecordMetrics metrics;
    private final Semaphore streams;
    /** Each open stream's stop flag and thread. */
    private final Map<AtomicBoolean, Thread> running = new ConcurrentHashMap<>();

    public RecordStreamer(ClusterMetadata metadata, KafkaConsumerFactory consumers, RestProxyProperties properties,
            JsonMapper mapper, RecordMetrics metrics, Callers callers) {
        this.callers = callers;
        this.metadata = metadata;
        this.consumers = consumers;
        this.mapper = mapper;
        this.metrics = metrics;
        this.streams = new Semaphore(properties.maxStreams());
    }

    /**
     * Opens a stream of {@code topic}'s records.
     *
     * @param lastEventId the client's {@code Last-Event-ID}, or null
     * @throws io.tributary.restproxy.error.TopicNotFoundException when the topic does not exist
     * @throws io.tributary.restproxy.error.InvalidArgumentException for a bad Last-Event-ID
     * @throws CapacityExceededException when {@code rest-proxy.max-streams} streams are open
     */
    public SseEmitter open(String topic, Start start, String lastEventId, EmbeddedFormat format) {
        return open(topic, start, lastEventId, format, null);
    }

    /**
     * As {@link #open(String, Start, String, EmbeddedFormat)}, reading with {@code isolationLevel}
     * ({@code read_committed}: only committed transactions' records; null: the default).
     */
    public SseEmitter open(String topic, Start start, String lastEventId, EmbeddedFormat format, String isolationLevel) {
        int partitions = metadata.partitionCount(topic);
        StreamPositions positions = StreamPositions.parse(lastEventId);
        if (!streams.tryAcquire()) {
            throw new CapacityExceededException("Too many open streams (rest-proxy.max-streams)");
        }
        KafkaLogin login;
        try {
            login = callers.current();
        } catch (RuntimeException e) {
            streams.release();
            throw e;
        }
        SseEmitter emitter = new SseEmitter(0L);
        AtomicBoolean stopped = new AtomicBoolean();
        Thread thread = new Thread(() -> {
            try {
                run(login, topic, partitions, start, positions, format, isolationLevel, emitter, stopped);
            } finally {
                streams.release();
                running.remove(stopped);
            }
        }, "rest-stream-" + topic);
        thread.setDaemon(true);
        // When the container notices that the client went away, the stream stops at its next poll
        // (a flag, not an interrupt: an interrupted Kafka consumer cannot close cleanly).
        emitter.onCompletion(() -> stopped.set(true));
        emitter.onError(e -> stopped.set(true));
        running.put(stopped, thread);
        thread.start();
        return emitter;
    }

    private void run(KafkaLogin login, String topic, int partitionCount,
            Start start, StreamPositions positions, EmbeddedFormat format, String isolationLevel,
            SseEmitter emitter, AtomicBoolean stopped) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumers.groupless(login, "rest-proxy-stream", "earliest",
                isolationLevel)) {
            consumer.assign(partitions);
            // A resumed position past the log end (the log was truncated or recreated) resumes at the end;
            // one before the log start is reset to the start by the consumer (auto.offset.reset=earliest).
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            List<TopicPartition> unnamed = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                Long next = positions.get(tp.partition());
                if (next != null) {
                    consumer.seek(tp, Math.min(next, ends.get(tp)));
                } else {
                    unnamed.add(tp);
                }
            }
            // Kafka reads an empty collection as "every assigned partition".
            if (!unnamed.isEmpty() && start == Start.BEGINNING) {
                consumer.seekToBeginning(unnamed);
            } else if (!unnamed.isEmpty()) {
                consumer.seekToEnd(unnamed);
            }
            for (TopicPartition tp : partitions) {
                positions.put(tp.partition(), consumer.position(tp));
            }
            emitter.send(SseEmitter.event().comment("streaming " + topic + " from " + positions.eventId()));
            long nextHeartbeat = System.currentTimeMillis() + HEARTBEAT_MS;
            while (!stopped.get()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    positions.put(record.partition(), record.offset() + 1);
                    emitter.send(SseEmitter.event().id(positions.eventId()).name("record")
                        .data(RecordView.of(record, format, mapper), MediaType.APPLICATION_JSON));
                    metrics.consumed("stream", 1, RecordMetrics.size(record));
                }
                if (System.currentTimeMillis() >= nextHeartbeat) {
                    emitter.send(SseEmitter.event().comment("heartbeat"));
                    nextHeartbeat = System.currentTimeMillis() + HEARTBEAT_MS;
                }
            }
            emitter.complete();
        } catch (IOException | IllegalStateException e) {
            // The client went away: the next write failed.
            log.debug("Stream of {} ended: {}", topic, e.toString());
        } catch (KafkaException e) {
            log.warn("Stream of {} failed: {}", topic, KafkaErrors.describe(e));
            emitter.completeWithError(e);
        }
    }

    @PreDestroy
    void stop() throws InterruptedException {
        running.keySet().forEach(stopped -> stopped.set(true));
        for (Thread thread : List.copyOf(running.values())) {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
    }
}
