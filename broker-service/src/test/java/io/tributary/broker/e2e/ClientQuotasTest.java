package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client byte-rate quotas (KIP-13, KIP-55, KIP-219) set with Kafka's own kafka-configs
 * ({@code --entity-type clients}): a producer and a consumer whose client ids have a quota of
 * 250 KB/s are held near it (the rate measured over two one-second windows here), are told to wait ({@code throttle_time_ms}, seen in the clients' own throttle metrics) and the
 * broker reports their throttle time; a producer with another client id is not throttled.
 */
class ClientQuotasTest {

    private static final String TOOL = "org.apache.kafka.tools.ConfigCommand";
    private static final int QUOTA = 250_000;
    private static final int RECORD_BYTES = 50_000;
    private static final int RECORDS = 32; // 1.6 MB: 0.5 MB of burst, then about 4.5 s at the quota

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        // Two one-second windows instead of Kafka's eleven: a fresh rate allows a burst of about
        // two seconds' worth before the quota bites, so a short test shows it.
        broker = TestBroker.start(dir, Map.of("broker.quota-window-num", "2"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("limited", 1, (short) 1), new NewTopic("free", 1, (short) 1),
                new NewTopic("prefilled", 1, (short) 1))).all().get();
        }
        // What the throttled consumer reads, written beforehand by a client without a quota, so that it
        // reads while the throttled producer writes.
        try (KafkaProducer<byte[], byte[]> filler = broker.producer(Map.of(ProducerConfig.CLIENT_ID_CONFIG, "filler"))) {
            produce(filler, "prefilled");
        }
    }

    /** What a consumer read, in how many seconds, and the longest throttle time the broker asked of it. */
    private record Consumption(int records, double seconds, double throttleMs) {
    }

    /** Reads the {@value #RECORDS} records of topic prefilled as client id {@code clientId}. */
    private static Consumption consumeThePrefilledTopic(String clientId) {
        long begin = System.nanoTime();
        // One record's batch (50,072 bytes) per answer: a larger limit also sends part of the next batch, which
        // the quota counts and the client drops, so the consumer would read about 0.43 of its quota, on Apache
        // Kafka 4.4 as here (benchmarks' QuotaBenchmark); this way both read about 0.9 of it.
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, clientId,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, RECORD_BYTES + 100))) {
            TopicPartition tp = new TopicPartition("prefilled", 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            int[] read = {0};
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                read[0] += consumer.poll(Duration.ofMillis(200)).count();
                return read[0] >= RECORDS;
            });
            double throttleMs = metric(consumer.metrics(), "fetch-throttle-time-max");
            return new Consumption(read[0], (System.nanoTime() - begin) / 1e9, throttleMs);
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static KafkaTool.Result configs(String... args) throws Exception {
        return KafkaTool.runAgainst(broker.bootstrapServers(), TOOL, args);
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream().filter(e -> e.getKey().name().equals(name))
            .mapToDouble(e -> (Double) e.getValue().metricValue()).filter(v -> !Double.isNaN(v)).max().orElse(0);
    }

    /** Sends the records one by one and returns the seconds taken. */
    private static double produce(KafkaProducer<byte[], byte[]> producer, String topic) throws Exception {
        long begin = System.nanoTime();
        for (int i = 0; i < RECORDS; i++) {
            producer.send(new ProducerRecord<>(topic, new byte[RECORD_BYTES])).get();
        }
        return (System.nanoTime() - begin) / 1e9;
    }

    @Test
    void kafkaConfigsSetsDescribesAndDeletesUserQuotas() throws Exception {
        assertThat(configs("--alter", "--entity-type", "users", "--entity-name", "alice", "--add-config",
            "producer_byte_rate=1000000,request_percentage=50").exitCode()).isZero();
        assertThat(configs("--alter", "--entity-type", "users", "--entity-default", "--add-config",
            "consumer_byte_rate=2000000").exitCode()).isZero();
        assertThat(configs("--alter", "--entity-type", "users", "--entity-name", "alice", "--entity-type", "clients",
            "--entity-name", "app", "--add-config", "producer_byte_rate=3000000").exitCode()).isZero();

        KafkaTool.Result alice = configs("--describe", "--entity-type", "users", "--entity-name", "alice");
        assertThat(alice.output()).contains("producer_byte_rate=1000000").contains("request_percentage=50");
        KafkaTool.Result defaults = configs("--describe", "--entity-type", "users", "--entity-default");
        assertThat(defaults.output()).contains("consumer_byte_rate=2000000");
        KafkaTool.Result aliceApp = configs("--describe", "--entity-type", "users", "--entity-name", "alice",
            "--entity-type", "clients", "--entity-name", "app");
        assertThat(aliceApp.output()).contains("producer_byte_rate=3000000");
        // ZooKeeper holds them where Kafka's ZooKeeper mode does.
        assertThat(broker.server().zkClient().getString("/config/users/alice/clients/app")).hasValueSatisfying(
            json -> assertThat(json).contains("\"producer_byte_rate\":\"3000000\""));

        assertThat(configs("--alter", "--entity-type", "users", "--entity-name", "alice", "--delete-config",
            "producer_byte_rate,request_percentage").exitCode()).isZero();
        assertThat(configs("--alter", "--entity-type", "users", "--entity-default", "--delete-config",
            "consumer_byte_rate").exitCode()).isZero();
        assertThat(configs("--alter", "--entity-type", "users", "--entity-name", "alice", "--entity-type", "clients",
            "--entity-name", "app", "--delete-config", "producer_byte_rate").exitCode()).isZero();
        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "alice").output())
            .doesNotContain("producer_byte_rate");
    }

    @Test
    void topicCreationsBeyondTheControllerMutationRateAreRefused() throws Exception {
        // Two partitions a second, a bucket two windows (seconds) deep: four partitions at once.
        KafkaTool.Result set = configs("--alter", "--entity-type", "clients", "--entity-name", "creator",
            "--add-config", "controller_mutation_rate=2");
        assertThat(set.exitCode()).as(set.output()).isZero();
        try (Admin creator = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers(),
                "client.id", "creator"))) {
            org.apache.kafka.clients.admin.CreateTopicsOptions noRetry =
                new org.apache.kafka.clients.admin.CreateTopicsOptions().retryOnQuotaViolation(false);
            // The bucket holds four partitions and refills two a second: a run of creations is soon refused.
            org.apache.kafka.common.errors.ThrottlingQuotaExceededException refusal = null;
            for (int i = 0; i < 20 && refusal == null; i++) {
                try {
                    creator.createTopics(List.of(new NewTopic("mutated-" + i, 2, (short) 1)), noRetry).all().get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (!(e.getCause() instanceof org.apache.kafka.common.errors.ThrottlingQuotaExceededException t)) {
                        throw e;
                    }
                    refusal = t;
                }
            }
            assertThat(refusal).as("a creation refused with THROTTLING_QUOTA_EXCEEDED").isNotNull();
            assertThat(refusal.throttleTimeMs()).isPositive();
        }
        try (Admin other = broker.admin()) {
            other.createTopics(List.of(new NewTopic("unlimited-a", 4, (short) 1), new NewTopic("unlimited-b", 4, (short) 1)))
                .all().get();
        }
        configs("--alter", "--entity-type", "clients", "--entity-name", "creator", "--delete-config",
            "controller_mutation_rate");
    }

    @Test
    void producersAndConsumersAreHeldNearTheirByteRates() throws Exception {
        KafkaTool.Result set = configs("--alter", "--entity-type", "clients", "--entity-name", "slow",
            "--add-config", "producer_byte_rate=" + QUOTA + ",consumer_byte_rate=" + QUOTA);
        assertThat(set.exitCode()).as(set.output()).isZero();
        KafkaTool.Result described = configs("--describe", "--entity-type", "clients", "--entity-name", "slow");
        assertThat(described.output()).contains("producer_byte_rate=" + QUOTA).contains("consumer_byte_rate=" + QUOTA);
        try (Admin admin = broker.admin()) {
            assertThat(admin.describeClientQuotas(ClientQuotaFilter.contains(List.of(
                    ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.CLIENT_ID, "slow")))).entities().get())
                .containsKey(new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "slow")));
        }

        // The consumer reads (a topic written beforehand) while the producer writes: each has its own quota.
        CompletableFuture<Consumption> consumed = CompletableFuture.supplyAsync(() -> consumeThePrefilledTopic("slow"));
        // 1.1 MB past the burst at 250 KB/s take about 4.5 s; unthrottled they take well under one.
        double slowSeconds;
        double slowThrottle;
        try (KafkaProducer<byte[], byte[]> slow = broker.producer(Map.of(ProducerConfig.CLIENT_ID_CONFIG, "slow",
                ProducerConfig.LINGER_MS_CONFIG, 0))) {
            slowSeconds = produce(slow, "limited");
            slowThrottle = metric(slow.metrics(), "produce-throttle-time-max");
        }
        double fastThrottle;
        try (KafkaProducer<byte[], byte[]> fast = broker.producer(Map.of(ProducerConfig.CLIENT_ID_CONFIG, "fast",
                ProducerConfig.LINGER_MS_CONFIG, 0))) {
            produce(fast, "free");
            fastThrottle = metric(fast.metrics(), "produce-throttle-time-max");
        }
        System.out.printf("%d bytes produced in %.1f s under a quota of %d bytes/s%n", RECORDS * RECORD_BYTES,
            slowSeconds, QUOTA);
        assertThat(slowThrottle).as("the slow producer was told to wait").isPositive();
        assertThat(slowSeconds).as("held near the quota").isGreaterThan(2.0);
        assertThat(fastThrottle).as("another client id is not throttled").isZero();
        assertThat(broker.server().meterRegistry().get("kafka.server.produce.throttle.time").tag("client-id", "slow")
            .gauge().value()).isPositive();

        Consumption consumption = consumed.get(90, TimeUnit.SECONDS);
        System.out.printf("%d bytes consumed in %.1f s under a quota of %d bytes/s%n", RECORDS * RECORD_BYTES,
            consumption.seconds(), QUOTA);
        assertThat(consumption.records()).isEqualTo(RECORDS);
        assertThat(consumption.throttleMs()).as("the consumer was told to wait").isPositive();
        assertThat(consumption.seconds()).isGreaterThan(2.0);

        KafkaTool.Result removed = configs("--alter", "--entity-type", "clients", "--entity-name", "slow",
            "--delete-config", "producer_byte_rate,consumer_byte_rate");
        assertThat(removed.exitCode()).as(removed.output()).isZero();
        try (Admin admin = broker.admin()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> admin.describeClientQuotas(ClientQuotaFilter.contains(
                List.of(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.CLIENT_ID, "slow")))).entities().get().isEmpty());
        }
    }

    /**
     * {@code request_percentage} (KIP-124): a producer whose client id may use 1% of one request
     * handler thread is told to wait once its requests take more, and the broker's request-time meter
     * shows it; removing the quota frees it.
     */
    @Test
    void aClientOverItsRequestPercentageIsThrottled() throws Exception {
        KafkaTool.Result set = configs("--alter", "--entity-type", "clients", "--entity-name", "busy",
            "--add-config", "request_percentage=1");
        assertThat(set.exitCode()).as(set.output()).isZero();
        try (KafkaProducer<byte[], byte[]> busy = broker.producer(Map.of(ProducerConfig.CLIENT_ID_CONFIG, "busy",
                ProducerConfig.LINGER_MS_CONFIG, 0))) {
            // 10 ms of handler time per second: one small record after another soon takes more.
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (int i = 0; i < 20; i++) {
                    busy.send(new ProducerRecord<>("free", new byte[10])).get();
                }
                return metric(busy.metrics(), "produce-throttle-time-max") > 0;
            });
        }
        assertThat(broker.server().meterRegistry().get("kafka.server.request.request.time").tag("client-id", "busy")
            .gauge().value()).isPositive();
        assertThat(broker.server().meterRegistry().get("kafka.server.request.throttle.time").tag("client-id", "busy")
            .gauge().value()).isPositive();

        KafkaTool.Result removed = configs("--alter", "--entity-type", "clients", "--entity-name", "busy",
            "--delete-config", "request_percentage");
        assertThat(removed.exitCode()).as(removed.output()).isZero();
    }

    /**
     * KIP-219: after an answer with {@code throttle_time_ms} = T the broker mutes that connection:
     * the next request, written at once, is answered no earlier than T after the first answer,
     * while another connection (of the same client id) is served meanwhile.
     */
    @Test
    void aThrottledConnectionIsMutedForTheThrottleTime() throws Exception {
        try (Admin admin = broker.admin()) {
            admin.alterClientQuotas(List.of(new org.apache.kafka.common.quota.ClientQuotaAlteration(
                new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "muted")),
                List.of(new org.apache.kafka.common.quota.ClientQuotaAlteration.Op("producer_byte_rate", 100_000.0)))))
                .all().get();
        }
        // 300 KB at once against 100 KB/s: about two seconds to wait (once the broker has the quota).
        org.apache.kafka.common.requests.ProduceRequest produce = new org.apache.kafka.common.requests.ProduceRequest(
            new org.apache.kafka.common.message.ProduceRequestData().setAcks((short) 1).setTimeoutMs(10_000)
                .setTopicData(new org.apache.kafka.common.message.ProduceRequestData.TopicProduceDataCollection(
                    List.of(new org.apache.kafka.common.message.ProduceRequestData.TopicProduceData().setName("free")
                        .setPartitionData(List.of(new org.apache.kafka.common.message.ProduceRequestData.PartitionProduceData()
                            .setIndex(0).setRecords(org.apache.kafka.common.record.internal.MemoryRecords.withRecords(
                                org.apache.kafka.common.compress.Compression.NONE,
                                new org.apache.kafka.common.record.internal.SimpleRecord(new byte[300_000])))))).iterator())),
            (short) 12);
        org.apache.kafka.common.requests.MetadataRequest metadata = new org.apache.kafka.common.requests.MetadataRequest(
            new org.apache.kafka.common.message.MetadataRequestData().setTopics(List.of()), (short) 12);
        io.tributary.broker.testing.WireClient[] throttled = {null};
        int[] throttleMs = {0};
        try (io.tributary.broker.testing.WireClient other =
                 io.tributary.broker.testing.WireClient.connect(broker.bootstrapServers()).clientId("muted")) {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                if (throttled[0] != null) {
                    throttled[0].close();
                }
                throttled[0] = io.tributary.broker.testing.WireClient.connect(broker.bootstrapServers()).clientId("muted");
                org.apache.kafka.common.requests.ProduceResponse answer = throttled[0].send(produce);
                throttleMs[0] = answer.throttleTimeMs();
                return throttleMs[0] > 0;
            });
            long firstAnswer = System.nanoTime();
            io.tributary.broker.testing.WireClient muted = throttled[0];
            muted.sendOnly(metadata);
            other.send(metadata);
            assertThat(muted.hasUnreadBytes()).as("another connection is served while this one is muted").isFalse();
            org.apache.kafka.common.requests.MetadataResponse second = muted.receive(metadata);
            double elapsedMs = (System.nanoTime() - firstAnswer) / 1e6;
            System.out.printf("throttle_time_ms %d; the next request on the connection answered after %.0f ms%n",
                throttleMs[0], elapsedMs);
            assertThat(second.throttleTimeMs()).isZero();
            assertThat(elapsedMs).as("the next request waits out the throttle time").isGreaterThanOrEqualTo(throttleMs[0] - 100.0);
        } finally {
            if (throttled[0] != null) {
                throttled[0].close();
            }
            try (Admin admin = broker.admin()) {
                admin.alterClientQuotas(List.of(new org.apache.kafka.common.quota.ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "muted")),
                    List.of(new org.apache.kafka.common.quota.ClientQuotaAlteration.Op("producer_byte_rate", null)))))
                    .all().get();
            }
        }
    }
}
