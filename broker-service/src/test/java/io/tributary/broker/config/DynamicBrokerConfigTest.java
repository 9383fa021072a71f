package io.tributary.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.junit.jupiter.api.Test;

/** Precedence and validation of dynamic broker configs, as Kafka's {@code DynamicBrokerConfig} and {@code KafkaConfig}. */
class DynamicBrokerConfigTest {

    private static DynamicBrokerConfig config(AtomicInteger changes) {
        Map<String, Object> statics = new HashMap<>();
        statics.put("retention.ms", 604_800_000L);
        statics.put("max.message.bytes", 1_048_588);
        DynamicBrokerConfig config = new DynamicBrokerConfig(3, statics);
        config.addListener(changes::incrementAndGet);
        return config;
    }

    @Test
    void thisBrokersValueWinsOverTheClusterDefaultWhichWinsOverTheStaticOne() {
        AtomicInteger changes = new AtomicInteger();
        DynamicBrokerConfig config = config(changes);
        assertThat(config.logConfigDefaults().get("max.message.bytes")).isEqualTo(1_048_588);

        assertThat(config.update(DynamicBrokerConfig.DEFAULT_ENTITY, Map.of("message.max.bytes", "1000"))).isTrue();
        assertThat(config.logConfigDefaults().get("max.message.bytes")).isEqualTo(1000);
        assertThat(config.update("3", Map.of("message.max.bytes", "5000"))).isTrue();
        assertThat(config.logConfigDefaults().get("max.message.bytes")).isEqualTo(5000);
        assertThat(config.dynamicValue("message.max.bytes")).hasValue(Map.entry(DynamicBrokerConfig.Level.PER_BROKER, "5000"));
        assertThat(config.update("4", Map.of("message.max.bytes", "7"))).as("another broker's").isFalse();
        assertThat(config.update(DynamicBrokerConfig.DEFAULT_ENTITY, Map.of("message.max.bytes", "2000")))
            .as("hidden by this broker's own value: nothing in effect changes").isFalse();

        assertThat(config.update("3", Map.of())).isTrue();
        assertThat(config.logConfigDefaults().get("max.message.bytes")).isEqualTo(2000);
        assertThat(config.update(DynamicBrokerConfig.DEFAULT_ENTITY, Map.of())).isTrue();
        assertThat(config.logConfigDefaults().get("max.message.bytes")).isEqualTo(1_048_588);
        assertThat(changes).hasValue(4);
    }

    @Test
    void millisecondsWinOverMinutesWhichWinOverHoursAcrossBothLevels() {
        DynamicBrokerConfig config = config(new AtomicInteger());
        config.update("3", Map.of("log.retention.hours", "2"));
        assertThat(config.logConfigDefaults().get("retention.ms")).isEqualTo(7_200_000L);
        config.update(DynamicBrokerConfig.DEFAULT_ENTITY, Map.of("log.retention.minutes", "3"));
        assertThat(config.logConfigDefaults().get("retention.ms")).as("minutes, though only cluster-wide").isEqualTo(180_000L);
        config.update("3", Map.of("log.retention.hours", "2", "log.retention.ms", "1234"));
        assertThat(config.logConfigDefaults().get("retention.ms")).isEqualTo(1234L);
        assertThat(DynamicBrokerConfig.brokerSynonyms("retention.ms"))
            .containsExactly("log.retention.ms", "log.retention.minutes", "log.retention.hours");
    }

    @Test
    void staticUnknownNotYetDynamicAndBadValuesAreRefused() {
        DynamicBrokerConfig config = config(new AtomicInteger());
        assertThatThrownBy(() -> config.validate(Map.of("broker.id", "5", "log.dirs", "/x")))
            .isInstanceOf(InvalidConfigurationException.class)
            .hasMessage("Cannot update these configs dynamically: Set(broker.id, log.dirs)");
        assertThatThrownBy(() -> config.validate(Map.of("num.io.threads", "4")))
            .hasMessageContaining("Tributary does not change these configs while the broker runs yet");
        assertThatThrownBy(() -> config.validate(Map.of("no.such.config", "1")))
            .hasMessageContaining("Unknown broker config names: Set(no.such.config)");
        assertThatThrownBy(() -> config.validate(Map.of("log.retention.ms", "soon")))
            .isInstanceOf(InvalidConfigurationException.class);
        assertThatThrownBy(() -> config.validate(Map.of("log.retention.hours", "two")))
            .isInstanceOf(InvalidConfigurationException.class);
        config.validate(Map.of("log.cleanup.policy", "compact,delete", "min.insync.replicas", "2"));
        assertThat(DynamicBrokerConfig.dynamicConfigNames()).contains("log.segment.bytes", "message.max.bytes",
            "log.retention.ms", "log.cleanup.policy").doesNotContainAnyElementsOf(List.of("broker.id", "num.io.threads"));
    }

    @Test
    void aStoredSetThatDoesNotValidateIsIgnored() {
        AtomicInteger changes = new AtomicInteger();
        DynamicBrokerConfig config = config(changes);
        assertThat(config.update("3", Map.of("log.retention.ms", "soon"))).isFalse();
        assertThat(config.logConfigDefaults().get("retention.ms")).isEqualTo(604_800_000L);
        assertThat(changes).hasValue(0);
    }
}
