package io.tributary.restproxy.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.restproxy.config.KafkaClientProperties;
import io.tributary.restproxy.config.KafkaClientSettings;
import io.tributary.restproxy.security.Callers;
import io.tributary.restproxy.config.KafkaConsumerFactory;
import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.testing.BrokerFixture;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.json.JsonMapper;

class ConsumerInstanceExpiryTest {

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
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    private final BrokerFixture broker = BrokerFixture.get();
    private final ManualClock clock = new ManualClock();
    private final ConsumerManager manager = new ConsumerManager(
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
    void anInstanceIdleForTheTimeoutIsClosedAndLeavesItsGroup() throws Exception {
        broker.createTopic("expiry", 1);
        ConsumerInstance idle = manager.create("expiring", config("idle"));
        idle.subscribe(List.of("expiry"));
        ConsumerInstance busy = manager.create("expiring", config("busy"));
        busy.subscribe(List.of("expiry"));
        awaitMembers(2);

        clock.advance(Duration.ofMinutes(3));
        manager.get("expiring", "busy");
        clock.advance(Duration.ofMinutes(3));
        manager.expireIdle();

        assertThatThrownBy(() -> manager.get("expiring", "idle")).isInstanceOf(RestException.class)
            .hasMessageContaining("not found");
        assertThat(manager.get("expiring", "busy")).isSameAs(busy);
        assertThat(manager.size()).isEqualTo(1);
        awaitMembers(1);
    }

    private static ConsumerInstanceConfig config(String name) {
        return ConsumerInstanceConfig.parse(JsonMapper.builder().build().createObjectNode().put("name", name));
    }

    private void awaitMembers(int expected) {
        try (Admin admin = broker.admin()) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("expiring")).all().get()
                    .get("expiring");
                assertThat(group.members()).as("members of the group").hasSize(expected);
            });
        }
    }
}
