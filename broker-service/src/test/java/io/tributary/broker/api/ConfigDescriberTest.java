package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.config.BrokerConfigNames;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.DynamicBrokerConfig;
import io.tributary.broker.config.LogConfig;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;
import org.junit.jupiter.api.Test;

/**
 * DescribeConfigs' values, sources and synonym chains for settings given in several units, as Kafka 3.9's
 * {@code ConfigHelper.configSynonyms} builds them: per level every unit that level sets, Kafka's non-null
 * defaults only ({@code log.retention.hours=168}, never {@code log.retention.ms}), then the entries before
 * the described name dropped.
 */
class ConfigDescriberTest {

    private static ConfigDescriber describer(Map<String, String> brokerSettings, DynamicBrokerConfig[] dynamic) {
        BrokerProperties properties = BrokerProperties.bind(brokerSettings);
        dynamic[0] = new DynamicBrokerConfig(properties.id(), LogConfig.brokerDefaults(properties),
            BrokerConfigNames.describe(properties));
        return new ConfigDescriber(properties, BrokerSecurityProperties.defaults(), dynamic[0]);
    }

    /** name=value [source:name=value, ...] of one entry, the shape kafka-configs prints. */
    private static String entry(List<DescribeConfigsResourceResult> results, String name) {
        DescribeConfigsResourceResult r = results.stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
        StringBuilder out = new StringBuilder(name + "=" + r.value() + " " + ConfigSource.forId(r.configSource()) + " {");
        r.synonyms().forEach(s -> out.append(ConfigSource.forId(s.source())).append(':').append(s.name()).append('=')
            .append(s.value()).append(s == r.synonyms().get(r.synonyms().size() - 1) ? "" : ", "));
        return out.append('}').toString();
    }

    private static List<DescribeConfigsResourceResult> broker(ConfigDescriber describer) {
        return describer.brokerConfigs(false, null, true, false);
    }

    private static List<DescribeConfigsResourceResult> topic(ConfigDescriber describer) {
        return describer.topicConfigs(Map.of(), null, true, false);
    }

    @Test
    void aUnitSettingSetNowhereHasNoValueAndNoSynonymsAndTheHoursCarryKafkasDefault() {
        ConfigDescriber describer = describer(Map.of(), new DynamicBrokerConfig[1]);
        List<DescribeConfigsResourceResult> broker = broker(describer);
        assertThat(entry(broker, "log.retention.ms")).isEqualTo("log.retention.ms=null DEFAULT_CONFIG {}");
        assertThat(entry(broker, "log.retention.minutes")).isEqualTo("log.retention.minutes=null DEFAULT_CONFIG {}");
        assertThat(entry(broker, "log.retention.hours"))
            .isEqualTo("log.retention.hours=168 DEFAULT_CONFIG {DEFAULT_CONFIG:log.retention.hours=168}");
        assertThat(entry(broker, "log.roll.ms")).isEqualTo("log.roll.ms=null DEFAULT_CONFIG {}");
        assertThat(entry(broker, "log.roll.hours"))
            .isEqualTo("log.roll.hours=168 DEFAULT_CONFIG {DEFAULT_CONFIG:log.roll.hours=168}");
        assertThat(entry(broker, "log.roll.jitter.ms")).isEqualTo("log.roll.jitter.ms=null DEFAULT_CONFIG {}");
        assertThat(entry(broker, "log.roll.jitter.hours"))
            .isEqualTo("log.roll.jitter.hours=0 DEFAULT_CONFIG {DEFAULT_CONFIG:log.roll.jitter.hours=0}");
        assertThat(entry(broker, "log.segment.bytes"))
            .isEqualTo("log.segment.bytes=1073741824 DEFAULT_CONFIG {DEFAULT_CONFIG:log.segment.bytes=1073741824}");

        List<DescribeConfigsResourceResult> topic = topic(describer);
        assertThat(entry(topic, "retention.ms")).isEqualTo("retention.ms=604800000 DEFAULT_CONFIG {}");
        assertThat(entry(topic, "segment.ms")).isEqualTo("segment.ms=604800000 DEFAULT_CONFIG {}");
        assertThat(entry(topic, "segment.jitter.ms")).isEqualTo("segment.jitter.ms=0 DEFAULT_CONFIG {}");
        assertThat(entry(topic, "segment.bytes"))
            .isEqualTo("segment.bytes=1073741824 DEFAULT_CONFIG {DEFAULT_CONFIG:log.segment.bytes=1073741824}");
    }

    @Test
    void everyLevelListsEveryUnitItSetsFinestFirstAndEntriesBeforeTheDescribedNameAreDropped() {
        DynamicBrokerConfig[] dynamic = new DynamicBrokerConfig[1];
        ConfigDescriber describer = describer(Map.of("broker.log-retention-ms", "3600000"), dynamic);
        dynamic[0].update(DynamicBrokerConfig.DEFAULT_ENTITY, Map.of("log.retention.minutes", "30"));
        dynamic[0].update("0", Map.of("log.retention.hours", "2"));

        List<DescribeConfigsResourceResult> broker = broker(describer);
        assertThat(entry(broker, "log.retention.ms")).isEqualTo("log.retention.ms=3600000 STATIC_BROKER_CONFIG "
            + "{STATIC_BROKER_CONFIG:log.retention.ms=3600000, DEFAULT_CONFIG:log.retention.hours=168}");
        assertThat(entry(broker, "log.retention.minutes")).isEqualTo("log.retention.minutes=30 "
            + "DYNAMIC_DEFAULT_BROKER_CONFIG {DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.minutes=30, "
            + "STATIC_BROKER_CONFIG:log.retention.ms=3600000, DEFAULT_CONFIG:log.retention.hours=168}");
        assertThat(entry(broker, "log.retention.hours")).isEqualTo("log.retention.hours=2 DYNAMIC_BROKER_CONFIG "
            + "{DYNAMIC_BROKER_CONFIG:log.retention.hours=2, DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.minutes=30, "
            + "STATIC_BROKER_CONFIG:log.retention.ms=3600000, DEFAULT_CONFIG:log.retention.hours=168}");

        // The topic's chain starts at log.retention.ms: the dynamic hours and minutes before it are dropped.
        // Its value is the one in effect: the finest dynamic unit (30 minutes; a dynamic value in any unit
        // wins over the static setting here, see docs/settings.md).
        List<DescribeConfigsResourceResult> topic = topic(describer);
        assertThat(entry(topic, "retention.ms")).isEqualTo("retention.ms=1800000 STATIC_BROKER_CONFIG "
            + "{STATIC_BROKER_CONFIG:log.retention.ms=3600000, DEFAULT_CONFIG:log.retention.hours=168}");

        List<DescribeConfigsResourceResult> clusterWide = describer.brokerConfigs(true, null, true, false);
        assertThat(entry(clusterWide, "log.retention.minutes")).isEqualTo("log.retention.minutes=30 "
            + "DYNAMIC_DEFAULT_BROKER_CONFIG {DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.minutes=30}");
        assertThat(clusterWide).extracting(DescribeConfigsResourceResult::name).containsExactly("log.retention.minutes");
    }

    @Test
    void rollJitterHoursIsASynonymOfTheJitterAndChangesItLive() {
        DynamicBrokerConfig[] dynamic = new DynamicBrokerConfig[1];
        ConfigDescriber describer = describer(Map.of(), dynamic);
        assertThat(DynamicBrokerConfig.isDynamic("log.roll.jitter.hours")).isTrue();
        dynamic[0].update("0", Map.of("log.roll.jitter.hours", "1"));
        assertThat(dynamic[0].logConfigDefaults().get("segment.jitter.ms")).isEqualTo(3_600_000L);
        assertThat(entry(broker(describer), "log.roll.jitter.hours")).isEqualTo("log.roll.jitter.hours=1 "
            + "DYNAMIC_BROKER_CONFIG {DYNAMIC_BROKER_CONFIG:log.roll.jitter.hours=1, DEFAULT_CONFIG:log.roll.jitter.hours=0}");
        dynamic[0].update("0", Map.of("log.roll.jitter.hours", "1", "log.roll.jitter.ms", "5"));
        assertThat(dynamic[0].logConfigDefaults().get("segment.jitter.ms")).as("the finer unit wins").isEqualTo(5L);
        assertThat(entry(topic(describer), "segment.jitter.ms")).isEqualTo("segment.jitter.ms=5 DYNAMIC_BROKER_CONFIG "
            + "{DYNAMIC_BROKER_CONFIG:log.roll.jitter.ms=5, DYNAMIC_BROKER_CONFIG:log.roll.jitter.hours=1, "
            + "DEFAULT_CONFIG:log.roll.jitter.hours=0}");
    }
}
