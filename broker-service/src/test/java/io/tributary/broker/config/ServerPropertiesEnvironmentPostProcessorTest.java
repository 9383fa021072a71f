package io.tributary.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ServerPropertiesEnvironmentPostProcessorTest {

    private static Map<String, Object> map(Map<String, String> kafka, List<List<String>> unknown) {
        Properties p = new Properties();
        p.putAll(kafka);
        return ServerPropertiesEnvironmentPostProcessor.map(p, unknown::add);
    }

    @Test
    void mapsKafkaNamesToBrokerProperties() {
        List<List<String>> unknown = new ArrayList<>();
        Map<String, Object> mapped = map(Map.of("broker.id", "7", "log.dirs", "/a,/b", "zookeeper.connect", "zk:2181",
            "log.segment.bytes", "1048576", "auto.create.topics.enable", "false", "advertised.listeners",
            "PLAINTEXT://h:9092", "message.max.bytes", "2000000"), unknown);
        assertThat(mapped).containsEntry("broker.id", "7").containsEntry("broker.log-dirs", "/a,/b")
            .containsEntry("broker.zookeeper-connect", "zk:2181").containsEntry("broker.log-segment-bytes", "1048576")
            .containsEntry("broker.auto-create-topics-enable", "false")
            .containsEntry("broker.advertised-listeners", "PLAINTEXT://h:9092")
            .containsEntry("broker.message-max-bytes", "2000000");
        assertThat(unknown).isEmpty();
    }

    @Test
    void mapsKafkaSecuritySettingsIncludingPerListenerJaasEntries() {
        List<List<String>> unknown = new ArrayList<>();
        Map<String, Object> mapped = map(Map.of("ssl.keystore.location", "/certs/broker.p12",
            "ssl.keystore.type", "PKCS12", "ssl.client.auth", "required", "sasl.enabled.mechanisms", "SCRAM-SHA-512",
            "sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512",
            "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config", "entry-for-sasl-ssl",
            "connection.failed.authentication.delay.ms", "250"), unknown);
        assertThat(unknown).isEmpty();
        BrokerSecurityProperties security = BrokerSecurityProperties.bind(mapped);
        assertThat(security.sslKeystoreLocation()).isEqualTo("/certs/broker.p12");
        assertThat(security.sslKeystoreType()).isEqualTo("PKCS12");
        assertThat(security.sslClientAuth()).isEqualTo("required");
        assertThat(security.enabledMechanisms()).containsExactly("SCRAM-SHA-512");
        assertThat(security.connectionFailedAuthenticationDelayMs()).isEqualTo(250);
        assertThat(security.jaasConfig("SASL_SSL", "SCRAM-SHA-512")).isEqualTo("entry-for-sasl-ssl");
    }

    @Test
    void convertsHoursAndMinutesAndTheFinerUnitWins() {
        assertThat(map(Map.of("log.retention.hours", "168"), new ArrayList<>()))
            .containsEntry("broker.log-retention-ms", "604800000");
        assertThat(map(Map.of("log.retention.hours", "168", "log.retention.minutes", "5"), new ArrayList<>()))
            .containsEntry("broker.log-retention-ms", "300000");
        assertThat(map(Map.of("log.retention.minutes", "5", "log.retention.ms", "1234"), new ArrayList<>()))
            .containsEntry("broker.log-retention-ms", "1234");
        assertThat(map(Map.of("log.retention.hours", "-1"), new ArrayList<>()))
            .containsEntry("broker.log-retention-ms", "-1");
        assertThat(map(Map.of("log.roll.hours", "1"), new ArrayList<>())).containsEntry("broker.log-roll-ms", "3600000");
        assertThat(map(Map.of("log.roll.jitter.hours", "2"), new ArrayList<>()))
            .containsEntry("broker.log-roll-jitter-ms", "7200000");
        assertThat(map(Map.of("log.roll.jitter.hours", "2", "log.roll.jitter.ms", "5"), new ArrayList<>()))
            .containsEntry("broker.log-roll-jitter-ms", "5");
    }

    @Test
    void kraftNodeIdAndSingularLogDirAreUnderstood() {
        assertThat(map(Map.of("node.id", "2", "log.dir", "/x"), new ArrayList<>()))
            .containsEntry("broker.id", "2").containsEntry("broker.log-dirs", "/x");
    }

    @Test
    void unknownKeysAreReportedOnceSorted() {
        List<List<String>> unknown = new ArrayList<>();
        map(Map.of("process.roles", "broker", "num.partitions", "3", "controller.quorum.voters", "1@h:9093"), unknown);
        assertThat(unknown).containsExactly(List.of("controller.quorum.voters", "process.roles"));
    }

    @Test
    void everyBrokerPropertyHasAKafkaName() {
        assertThat(BrokerConfigNames.propertyFor("log.retention.check.interval.ms")).contains(
            "broker.log-retention-check-interval-ms");
        assertThat(BrokerConfigNames.propertyFor("socket.request.max.bytes")).contains("broker.socket-request-max-bytes");
        assertThat(BrokerConfigNames.propertyFor("broker.rack")).contains("broker.rack");
        assertThat(BrokerConfigNames.propertyFor("no.such.setting")).isEmpty();
        assertThat(BrokerConfigNames.defaultValue("num.partitions")).isEqualTo("1");
    }
}
