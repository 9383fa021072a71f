package io.tributary.restproxy.search;

import io.tributary.restproxy.config.KafkaConsumerFactory;
import io.tributary.restproxy.error.CapacityExceededException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.SearchNotFoundException;
import io.tributary.restproxy.metadata.ClusterMetadata;
import io.tributary.restproxy.security.Callers;
import io.tributary.restproxy.security.KafkaLogin;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Runs searches of a topic's records on the server, so a browser never scans a big topic itself.
 * A search scans every partition from its first offset up to the log end offset it had when the
 * search started (the total), bounded by a record count, a time budget and a match count, and can
 * be cancelled; its progress and matches are read while it runs. Two searches run at once, eight
 * more may wait; finished searches are forgotten after ten minutes. Searches live on the proxy
 * replica that started them. Thread-safe.
 */
@Service
public class SearchService {

    private static final Logger log = LoggerFactory.getLogger(SearchService.class);
    private static final long KEEP_FINISHED_MS = TimeUnit.MINUTES.toMillis(10);

    private final ClusterMetadata metadata;
    private final KafkaConsumerFactory consumers;
    private final Callers callers;
    /** The login that started each search, by search id: only it may see the search. */
    private final Map<String, KafkaLogin> owners = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Map<String, TopicSearch> searches = new ConcurrentHashMap<>();
    private final ExecutorService executor = new ThreadPoolExecutor(2, 2, 0, TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(8), r -> {
            Thread thread = new Thread(r, "rest-topic-search");
            thread.setDaemon(true);
            return thread;
        });

    public SearchService(ClusterMetadata metadata, KafkaConsumerFactory consumers, Clock clock, Callers callers) {
        this.callers = callers;
        this.metadata = metadata;
        this.consumers = consumers;
        this.clock = clock;
    }

    /**
     * Starts a search.
     *
     * @throws io.tributary.restproxy.error.TopicNotFoundException when the topic does not exist
     * @throws CapacityExceededException when too many searches run
     */
    public TopicSearch start(TopicSearch.Request request) {
        int partitions = metadata.partitionCount(request.topic());
        forgetOld();
        TopicSearch search = new TopicSearch(UUID.randomUUID().toString(), request, clock.millis());
        KafkaLogin login = callers.current();
        owners.put(search.id(), login);
        searches.put(search.id(), search);
        try {
            executor.execute(() -> run(login, search, partitions));
        } catch (RejectedExecutionException e) {
            searches.remove(search.id());
            owners.remove(search.id());
            throw new CapacityExceededException("Too many searches running; retry later");
        }
        return search;
    }

    /**
     * The search.
     *
     * @throws SearchNotFoundException when unknown (or forgotten) here
     */
    public TopicSearch get(String topic, String id) {
        TopicSearch search = searches.get(id);
        if (search == null || !search.request().topic().equals(topic)
                || !callers.current().equals(owners.get(id))) {
            throw new SearchNotFoundException(id);
        }
        return search;
    }

    public long now() {
        return clock.millis();
    }

    private void run(KafkaLogin login, TopicSearch search, int partitionCount) {
        TopicSearch.Request request = search.request();
        long deadline = clock.millis() + request.timeBudgetMs();
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++) {
            partitions.add(new TopicPartition(request.topic(), p));
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumers.groupless(login, "rest-proxy-search", "earliest")) {
            consumer.assign(partitions);
            Map<TopicPartition, Long> start = consumer.beginningOffsets(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long total = 0;
            Map<TopicPartition, Long> remainingEnd = new HashMap<>();
            for (TopicPartition tp : partitions) {
                total += end.get(tp) - start.get(tp);
                if (end.get(tp) > start.get(tp)) {
                    remainingEnd.put(tp, end.get(tp));
                    consumer.seek(tp, start.get(tp));
                }
            }
            search.total(total);
            consumer.assign(remainingEnd.keySet());
            while (!remainingEnd.isEmpty()) {
                if (search.cancelRequested()) {
                    search.finish(TopicSearch.State.CANCELLED, clock.millis(), null);
                    return;
                }
                if (clock.millis() >= deadline) {
                    search.finish(TopicSearch.State.TIME_BUDGET_EXHAUSTED, clock.millis(), null);
                    return;
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    TopicPartition tp = new TopicPartition(record.topic(), record.partition());
                    Long stop = remainingEnd.get(tp);
                    if (stop == null || record.offset() >= stop) {
                        continue;
                    }
                    if (search.scanned() >= request.maxRecords()) {
                        search.finish(TopicSearch.State.RECORD_LIMIT_REACHED, clock.millis(), null);
                        return;
                    }
                    if (!search.scan(record)) {
                        search.finish(TopicSearch.State.MATCH_LIMIT_REACHED, clock.millis(), null);
                        return;
                    }
                }
                // Done with a partition once its position reaches the end captured at the start.
                for (TopicPartition tp : List.copyOf(remainingEnd.keySet())) {
                    if (consumer.position(tp) >= remainingEnd.get(tp)) {
                        remainingEnd.remove(tp);
                    }
                }
                if (!remainingEnd.isEmpty()) {
                    consumer.assign(remainingEnd.keySet());
                }
            }
            search.finish(TopicSearch.State.DONE, clock.millis(), null);
        } catch (KafkaException e) {
            log.warn("Search {} of {} failed: {}", search.id(), request.topic(), KafkaErrors.describe(e));
            search.finish(TopicSearch.State.FAILED, clock.millis(), KafkaErrors.describe(e));
        }
    }

    private void forgetOld() {
        long cutoff = clock.millis() - KEEP_FINISHED_MS;
        searches.values().removeIf(search -> search.finishedBefore(cutoff));
        owners.keySet().retainAll(searches.keySet());
    }

    @PreDestroy
    void stop() {
        searches.values().forEach(TopicSearch::cancel);
        executor.shutdownNow();
    }
}
