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
        DynamicBrokerConfig config = new DynamicBrokerConfig(3, statics, Map.of("num.io.threads", "8", "log.cleaner.threads", "2"));
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
        assertThatThrownBy(() -> config.validate("3", Map.of("broker.id", "5", "log.dirs", "/x")))
            .isInstanceOf(InvalidConfigurationException.class)
            .hasMessage("Cannot update these configs dynamically: Set(broker.id, log.dirs)");
        assertThatThrownBy(() -> config.validate("3", Map.of("num.network.threads", "4")))
            .hasMessageContaining("Tributary does not change these configs while the broker runs yet");
        assertThatThrownBy(() -> config.validate("3", Map.of("no.such.config", "1")))
            .hasMessageContaining("Unknown broker config names: Set(no.such.config)");
        assertThatThrownBy(() -> config.validate("3", Map.of("log.retention.ms", "soon")))
            .isInstanceOf(InvalidConfigurationException.class);
        assertThatThrownBy(() -> config.validate("3", Map.of("log.retention.hours", "two")))
            .isInstanceOf(InvalidConfigurationException.class);
        config.validate("3", Map.of("log.cleanup.policy", "compact,delete", "min.insync.replicas", "2"));
        assertThat(DynamicBrokerConfig.dynamicConfigNames()).contains("log.segment.bytes", "message.max.bytes",
            "log.retention.ms", "log.cleanup.policy").doesNotContainAnyElementsOf(List.of("broker.id", "num.network.threads"));
    }

    @Test
    void aThreadPoolOrConnectionLimitIsThisBrokersValueElseTheClusterOneElseTheStaticOneElseKafkas() {
        AtomicInteger changes = new AtomicInteger();
        DynamicBrokerConfig config = config(changes);
        assertThat(config.brokerLevelInt("num.io.threads")).as("static").isEqualTo(8);
        assertThat(config.brokerLevelInt("num.replica.fetchers")).as("Kafka's default").isEqualTo(1);
        assertThat(config.brokerLevelValue("log.cleaner.io.max.bytes.per.second")).isEqualTo(Double.MAX_VALUE);
        assertThat(config.update(DynamicBrokerConfig.DEFAULT_ENTITY, Map.of("num.io.threads", "12"))).isTrue();
        assertThat(config.brokerLevelInt("num.io.threads")).isEqualTo(12);
        assertThat(config.update("3", Map.of("num.io.threads", "16", "listener.name.internal.max.connections", "5")))
            .isTrue();
        assertThat(config.brokerLevelInt("num.io.threads")).isEqualTo(16);
        assertThat(config.perListenerInts("max.connections")).containsExactly(Map.entry("internal", 5));
        assertThat(config.brokerLevelValue("listener.name.external.max.connections")).as("unset: the broker-wide one")
            .isNull();
        assertThat(config.update("3", Map.of("num.io.threads", "many"))).as("a bad value is dropped").isTrue();
        assertThat(config.brokerLevelInt("num.io.threads")).isEqualTo(12);
        assertThat(changes).hasValue(3);
    }

    @Test
    void aThreadPoolMayAtMostHalveOrDoubleAtOnceCountingWhatADeletionFallsBackTo() {
        DynamicBrokerConfig config = config(new AtomicInteger());
        config.validate("3", Map.of("num.io.threads", "16", "log.cleaner.threads", "4", "num.replica.fetchers", "2"));
        assertThatThrownBy(() -> config.validate("3", Map.of("num.io.threads", "17")))
            .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining(
                "Dynamic thread count update validation failed for num.io.threads=17, value should not be greater "
                    + "than double the current value 8");
        assertThatThrownBy(() -> config.validate(DynamicBrokerConfig.DEFAULT_ENTITY, Map.of("num.io.threads", "3")))
            .hasMessageContaining("value should be at least half the current value 8");
        assertThatThrownBy(() -> config.validate("3", Map.of("background.threads", "0")))
            .hasMessageContaining("background.threads");
        assertThatThrownBy(() -> config.validate("3", Map.of("log.cleaner.threads", "5")))
            .hasMessageContaining("Log cleaner threads cannot be increased to more than double the current value 2");
        assertThatThrownBy(() -> config.validate("3", Map.of("log.cleaner.threads", "0")))
            .hasMessageContaining("Log cleaner threads should be at least 1");

        config.update("3", Map.of("num.io.threads", "16"));
        assertThatThrownBy(() -> config.validate("3", Map.of("num.io.threads", "33"))).hasMessageContaining(
            "current value 16");
        config.update(DynamicBrokerConfig.DEFAULT_ENTITY, Map.of("num.io.threads", "4"));
        assertThatThrownBy(() -> config.validate("3", Map.of())).as("deleting 16 falls back to the cluster's 4")
            .hasMessageContaining("num.io.threads=4, value should be at least half the current value 16");
        // Hidden by this broker's own 16: nothing in effect changes here.
        config.validate(DynamicBrokerConfig.DEFAULT_ENTITY, Map.of("num.io.threads", "3"));
    }

    @Test
    void aComponentsValidatorSeesTheSettingsAsTheChangeWouldLeaveThem() {
        DynamicBrokerConfig config = config(new AtomicInteger());
        List<Integer> seen = new java.util.ArrayList<>();
        config.addValidator(preview -> {
            int max = preview.brokerLevelInt("max.connections");
            seen.add(max);
            if (max > 100 && preview.perListenerInts("max.connections").isEmpty()) {
                throw new IllegalArgumentException("max.connections above 100 needs a listener limit");
            }
        });
        config.update(DynamicBrokerConfig.DEFAULT_ENTITY, Map.of("max.connections", "50"));
        config.validate("3", Map.of());
        assertThatThrownBy(() -> config.validate("3", Map.of("max.connections", "500")))
            .isInstanceOf(InvalidConfigurationException.class)
            .hasMessageContaining("max.connections above 100 needs a listener limit");
        config.validate("3", Map.of("max.connections", "500", "listener.name.internal.max.connections", "10"));
        assertThat(seen).containsExactly(50, 500, 500);
        assertThat(config.brokerLevelInt("max.connections")).as("validating changes nothing").isEqualTo(50);
    }

    @Test
    void aListenersTlsStoresChangeOnlyPerBrokerWithTheListenerPrefixAndPasswordsAreStoredEncrypted() {
        DynamicPasswordEncoder encoder = new DynamicPasswordEncoder("broker-secret");
        DynamicBrokerConfig config = new DynamicBrokerConfig(3, Map.of(), Map.of(), encoder);
        assertThatThrownBy(() -> config.validate("3", Map.of("ssl.keystore.location", "/k")))
            .hasMessage("These security configs can be dynamically updated only per-listener using the listener "
                + "prefix: Set(ssl.keystore.location)");
        assertThatThrownBy(() -> config.validate(DynamicBrokerConfig.DEFAULT_ENTITY,
                Map.of("listener.name.ssl.ssl.keystore.location", "/k")))
            .hasMessage("Cannot update these configs at default cluster level, broker id must be specified: "
                + "Set(listener.name.ssl.ssl.keystore.location)");
        Map<String, String> plain = Map.of("listener.name.ssl.ssl.keystore.location", "/k",
            "listener.name.ssl.ssl.keystore.password", "p4ss");
        config.validate("3", plain);

        Map<String, String> stored = config.encodeForStorage("3", plain);
        assertThat(stored.get("listener.name.ssl.ssl.keystore.location")).isEqualTo("/k");
        assertThat(stored.get("listener.name.ssl.ssl.keystore.password")).doesNotContain("p4ss")
            .contains("encryptedPassword:");
        assertThat(config.decodeStored(stored)).isEqualTo(plain);
        assertThat(config.update("3", stored)).isTrue();
        assertThat(config.listenerSslConfigs("SSL")).containsOnly(Map.entry("ssl.keystore.location", "/k"),
            Map.entry("ssl.keystore.password", "p4ss"));
        assertThat(config.listenerSslConfigs("internal")).isEmpty();

        assertThatThrownBy(() -> config.encodeForStorage(DynamicBrokerConfig.DEFAULT_ENTITY,
                Map.of("listener.name.ssl.ssl.key.password", "x")))
            .hasMessage("Password config can be defined only at broker level");
        DynamicBrokerConfig withoutSecret = new DynamicBrokerConfig(3, Map.of(), Map.of());
        assertThatThrownBy(() -> withoutSecret.encodeForStorage("3", plain))
            .hasMessage("Password encoder secret not configured");
        assertThat(withoutSecret.update("3", stored)).as("a password it cannot decode is ignored").isTrue();
        assertThat(withoutSecret.listenerSslConfigs("ssl")).containsOnly(Map.entry("ssl.keystore.location", "/k"));
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
