package io.tributary.broker.testing;

import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * A Kafka Streams word count with {@code processing.guarantee=exactly_once_v2}, run in its own JVM
 * by crash tests: {@code lines} to {@code word-counts} through a repartition topic and a changelogged
 * in-memory store. Runs until it is killed.
 *
 * <p>Arguments: bootstrap servers, application id, state directory.
 */
public final class WordCountApp {

    private WordCountApp() {
    }

    /** The word count: {@code lines} split into words, counted in store {@code counts}, to {@code word-counts}. */
    public static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("lines", Consumed.with(Serdes.String(), Serdes.String()))
            .flatMapValues(line -> Arrays.asList(line.split(" ")))
            .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
            .count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("counts"))
                .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
            .toStream().to("word-counts", Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    /** Its settings: exactly_once_v2, replication factor 1, a commit every 100 ms, input from the earliest offset. */
    public static Properties properties(String bootstrapServers, String applicationId, String stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        return props;
    }

    public static void main(String[] args) throws InterruptedException {
        Properties props = properties(args[0], args[1], args[2]);
        // A killed instance's group membership ends soon, so its successor gets the partitions quickly.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 3000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 500);
        KafkaStreams streams = new KafkaStreams(topology(), props);
        streams.setStateListener((next, previous) -> System.out.println("state " + previous + " -> " + next));
        streams.start();
        new CountDownLatch(1).await(); // until killed
    }
}
