package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.feature.SupportedVersionRange;
import org.junit.jupiter.api.Test;

/**
 * {@code /feature} in Kafka's ZooKeeper layout (FeatureZNode v2, and v1 read), and the supported
 * features of a registration: written as Kafka's BrokerIdZNode v5 lists them, read back, and read
 * as "level 0 only" from a registration without them.
 */
class FeatureZNodeTest {

    private static byte[] json(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writesVersionTwoWithoutLevelZeroFeatures() {
        String written = new String(FeatureZNode.encode(Map.of("transaction.version", (short) 1, "group.version", (short) 0)),
            StandardCharsets.UTF_8);

        assertThat(written).isEqualTo("{\"version\":2,\"status\":1,\"features\":{\"transaction.version\":{\"max_version_level\":1}}}");
        assertThat(FeatureZNode.decode(json(written), 3)).isEqualTo(new FinalizedFeatures(Map.of("transaction.version", (short) 1), 3));
    }

    @Test
    void aNewClusterFinalizesTransactionGroupAndShareVersionOne() {
        assertThat(BrokerFeatures.NEW_CLUSTER_LEVELS).containsOnly(Map.entry("transaction.version", (short) 1),
            Map.entry("group.version", (short) 1), Map.entry("share.version", (short) 1));
        String written = new String(FeatureZNode.encode(BrokerFeatures.NEW_CLUSTER_LEVELS), StandardCharsets.UTF_8);
        assertThat(FeatureZNode.decode(json(written), 0).level("share.version")).isEqualTo((short) 1);
    }

    @Test
    void readsVersionOneAndADisabledNode() {
        FinalizedFeatures v1 = FeatureZNode.decode(json(
            "{\"version\":1,\"status\":1,\"features\":{\"transaction.version\":{\"min_version_level\":1,\"max_version_level\":1}}}"), 0);
        assertThat(v1.level("transaction.version")).isEqualTo((short) 1);
        assertThat(v1.level("group.version")).as("not finalized").isZero();

        FinalizedFeatures disabled = FeatureZNode.decode(json(
            "{\"version\":2,\"status\":0,\"features\":{\"transaction.version\":{\"max_version_level\":1}}}"), 7);
        assertThat(disabled.levels()).isEmpty();
        assertThat(disabled.epoch()).isEqualTo(7);
    }

    @Test
    void refusesAnUnknownVersionAndGarbage() {
        assertThatThrownBy(() -> FeatureZNode.decode(json("{\"version\":3,\"status\":1,\"features\":{}}"), 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown version 3");
        assertThatThrownBy(() -> FeatureZNode.decode(json("not json"), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FeatureZNode.decode(json(
            "{\"version\":2,\"status\":1,\"features\":{\"x\":{\"max_version_level\":70000}}}"), 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of range");
    }

    @Test
    void aRegistrationListsTheSupportedFeaturesAndAnOldOneSupportsLevelZeroOnly() {
        BrokerInfo info = new BrokerInfo(1, List.of(), null, 5);
        String json = new String(info.toJson(1_000), StandardCharsets.UTF_8);
        assertThat(json).contains("\"features\":{\"group.version\":{\"min_version\":0,\"max_version\":1},"
            + "\"share.version\":{\"min_version\":0,\"max_version\":1},"
            + "\"transaction.version\":{\"min_version\":0,\"max_version\":1}}");
        assertThat(BrokerInfo.fromJson(1, json.getBytes(StandardCharsets.UTF_8), 5).features().supported())
            .isEqualTo(BrokerFeatures.CURRENT.supported());

        BrokerInfo old = BrokerInfo.fromJson(2, json("{\"version\":5,\"endpoints\":[],\"features\":{"
            + "\"bad\":{\"min_version\":3,\"max_version\":1}}}"), 6);
        assertThat(old.features().supported()).as("an invalid range is read as unsupported").isEmpty();
        assertThat(old.features().reasonNotSupported("transaction.version", (short) 1, "Broker 2"))
            .isEqualTo("Broker 2 does not support this feature.");
        assertThat(old.features().reasonNotSupported("transaction.version", (short) 0, "Broker 2")).isNull();
        assertThat(BrokerFeatures.CURRENT.reasonNotSupported("transaction.version", (short) 2, "Broker 1"))
            .isEqualTo("Broker 1 only supports versions 0-1");
        assertThat(new BrokerFeatures(Map.of("x", new SupportedVersionRange((short) 2, (short) 2)))
            .reasonNotSupported("x", (short) 1, "Broker 3")).isEqualTo("Broker 3 only supports versions 2");
        assertThat(BrokerInfo.fromJson(3, json("{\"version\":5,\"endpoints\":[]}"), 7).features().supported())
            .as("a registration without features").isEmpty();
    }
}
