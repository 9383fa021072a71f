package io.tributary.restproxy.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.restproxy.error.InvalidConsumerConfigException;
import io.tributary.restproxy.format.EmbeddedFormat;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class ShareInstanceConfigTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    @Test
    void anEmptyBodyGivesTheDefaults() {
        ShareInstanceConfig config = ShareInstanceConfig.parse(null);

        assertThat(config).isEqualTo(new ShareInstanceConfig(null, EmbeddedFormat.BINARY, null, null));
    }

    @Test
    void numbersMayComeAsStringsAndExplicitModeIsAccepted() {
        ShareInstanceConfig config = ShareInstanceConfig.parse(MAPPER.readTree("{\"name\":\"w-1\",\"format\":\"JSON\","
            + "\"share.acknowledgement.mode\":\"Explicit\",\"max.poll.records\":\"25\","
            + "\"consumer.request.timeout.ms\":3000}"));

        assertThat(config).isEqualTo(new ShareInstanceConfig("w-1", EmbeddedFormat.JSON, 25, 3000L));
    }

    @Test
    void implicitModeBadNumbersAndBadNamesAreRefused() {
        assertThatThrownBy(() -> ShareInstanceConfig.parse(MAPPER.readTree(
            "{\"share.acknowledgement.mode\":\"implicit\"}"))).isInstanceOf(InvalidConsumerConfigException.class)
            .hasMessageContaining("explicit");
        assertThatThrownBy(() -> ShareInstanceConfig.parse(MAPPER.readTree("{\"max.poll.records\":0}")))
            .isInstanceOf(InvalidConsumerConfigException.class).hasMessageContaining("max.poll.records");
        assertThatThrownBy(() -> ShareInstanceConfig.parse(MAPPER.readTree("{\"max.poll.records\":\"many\"}")))
            .isInstanceOf(InvalidConsumerConfigException.class).hasMessageContaining("not a number");
        assertThatThrownBy(() -> ShareInstanceConfig.parse(MAPPER.readTree("{\"name\":\"a/b\"}")))
            .isInstanceOf(InvalidConsumerConfigException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> ShareInstanceConfig.parse(MAPPER.readTree("{\"format\":\"avro\"}")))
            .isInstanceOf(InvalidConsumerConfigException.class);
    }
}
