package io.tributary.restproxy.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.restproxy.config.KafkaClientProperties;
import io.tributary.restproxy.config.KafkaClientSettings;
import io.tributary.restproxy.security.Callers;
import io.tributary.restproxy.config.KafkaConsumerFactory;
import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.testing.BrokerFixture;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.json.JsonMapper;

/**
 * A reader slower than {@code max.poll.interval.ms} keeps its place in the group, because the
 * instance's own thread polls; a proxy that polled only on HTTP reads would be evicted.
 */
class SlowReaderStaysInGroupTest {

    private final BrokerFixture broker = BrokerFixture.get();
    private final ConsumerManager manager = new ConsumerManager(
        new KafkaConsumerFactory(KafkaClientSettings.of(new KafkaClientProperties(broker.bootstrapServers(), "", "", "",
            Map.of(), Map.of(),
            Map.of("max.poll.interval.ms", "1500", "session.timeout.ms", "6000", "heartbeat.interval.ms", "500"),
            Map.of()))),
        new RestProxyProperties(Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofMinutes(5), DataSize.ofMegabytes(64),
            DataSize.ofMegabytes(16), DataSize.ofMegabytes(16), "", 4, 4, 100, "test", List.of()),
        Clock.systemUTC(), new SimpleMeterRegistry(), Callers.anonymous());

    @AfterEach
    void close() {
        manager.closeAll();
    }

    @Test
    void aReaderPausingLongerThanMaxPollIntervalIsNotEvicted() throws Exception {
        broker.createTopic("slow-reader", 1);
        ConsumerInstance instance = manager.create("slow-readers", ConsumerInstanceConfig.parse(
            JsonMapper.builder().build().createObjectNode().put("auto.offset.reset", "earliest")));
        instance.subscribe(List.of("slow-reader"));
        try (Admin admin = broker.admin()) {
            String memberBefore = await("the instance joins its group").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200)).until(() -> member(admin), Optional::isPresent).orElseThrow();

            // No read for twice max.poll.interval.ms (1.5 s): time that must pass, the member staying throughout
            // (an evicted one would leave the group, and rejoin under a new id only at the next read).
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> member(admin), Optional.of(memberBefore)::equals);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                    broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>("slow-reader", new byte[] {7})).get();
            }
            List<ConsumerRecord<byte[], byte[]>> records = instance.read(10_000, 1 << 20).get();

            assertThat(records).hasSize(1);
            assertThat(member(admin)).as("the same member, never evicted and rejoined").contains(memberBefore);
        }
    }

    /** The group's one member, once it has an assignment; empty while the group does not exist yet. */
    private static Optional<String> member(Admin admin) throws Exception {
        ConsumerGroupDescription group;
        try {
            group = admin.describeConsumerGroups(List.of("slow-readers")).all().get().get("slow-readers");
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                return Optional.empty(); // the instance has not sent its JoinGroup yet
            }
            throw e;
        }
        List<MemberDescription> members = List.copyOf(group.members());
        return members.size() == 1 && !members.get(0).assignment().topicPartitions().isEmpty()
            ? Optional.of(members.get(0).consumerId()) : Optional.empty();
    }
}
