package io.tributary.restproxy.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.restproxy.config.KafkaClientProperties;
import io.tributary.restproxy.config.KafkaClientSettings;
import io.tributary.restproxy.config.KafkaConsumerFactory;
import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.error.ConsumerInstanceNotFoundException;
import io.tributary.restproxy.security.Callers;
import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.RestShareConsumer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.json.JsonMapper;

/** A share consumer instance left unused past the instance timeout is closed, and its records go to another. */
class ShareInstanceExpiryTest {

    /** A clock the test moves by hand. */
    private static final class ManualClock extends Clock {
        private final AtomicLong millis = new AtomicLong(1_000_000);

        void advance(Duration duration) {
            millis.addAndGet(duration.toMillis());
        }

        @Override
        public long millis() {
            return millis.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    private final BrokerFixture broker = BrokerFixture.get();
    private final ManualClock clock = new ManualClock();
    private final ShareInstanceManager manager = new ShareInstanceManager(
        new KafkaConsumerFactory(KafkaClientSettings.of(new KafkaClientProperties(broker.bootstrapServers(), "", "", "",
            Map.of(), Map.of(), Map.of(), Map.of()))),
        new RestProxyProperties(Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofMinutes(5), DataSize.ofMegabytes(64),
            DataSize.ofMegabytes(16), DataSize.ofMegabytes(16), "", 4, 4, 100, "test", List.of()),
        clock, new SimpleMeterRegistry(), Callers.anonymous());

    @AfterEach
    void close() {
        manager.closeAll();
    }

    @Test
    void anIdleInstanceIsClosedAndTheRecordsItHeldGoToAnother() throws Exception {
        broker.createTopic("share-expiry", 1);
        RestShareConsumer.configureGroup(broker, "share-expiring", Map.of());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>("share-expiry", "job")).get();
        }
        ShareInstance idle = manager.create("share-expiring", config("idle"));
        idle.subscribe(List.of("share-expiry"));
        // The manual clock never reaches the read's deadline: it answers when records come.
        List<ConsumerRecord<byte[], byte[]>> held = idle.read(60_000).get(60, TimeUnit.SECONDS);
        assertThat(held).hasSize(1);
        ShareInstance busy = manager.create("share-expiring", config("busy"));
        busy.subscribe(List.of("share-expiry"));

        clock.advance(Duration.ofMinutes(3));
        manager.get("share-expiring", "busy");
        clock.advance(Duration.ofMinutes(3));
        manager.expireIdle();

        assertThatThrownBy(() -> manager.get("share-expiring", "idle"))
            .isInstanceOf(ConsumerInstanceNotFoundException.class);
        assertThat(manager.get("share-expiring", "busy")).isSameAs(busy);
        List<ConsumerRecord<byte[], byte[]>> redelivered = busy.read(60_000).get(60, TimeUnit.SECONDS);
        assertThat(redelivered).hasSize(1);
        assertThat(new String(redelivered.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("job");
        assertThat(redelivered.get(0).deliveryCount()).contains((short) 2);
        assertThat(busy.acknowledge(null, AcknowledgeType.ACCEPT).acknowledged()).isEqualTo(1);
    }

    private static ShareInstanceConfig config(String name) {
        return ShareInstanceConfig.parse(JsonMapper.builder().build().createObjectNode().put("name", name));
    }
}
