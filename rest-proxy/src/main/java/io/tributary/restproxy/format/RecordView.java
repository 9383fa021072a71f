package io.tributary.restproxy.format;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A record as the stateless read and streaming endpoints show it: the v2 fields plus timestamp
 * (ms since the epoch) and headers, keys, values and header values embedded in the format asked for.
 */
public record RecordView(String topic, JsonNode key, JsonNode value, int partition, long offset, long timestamp,
        List<HeaderView> headers) {

    /** A record header; its value embedded like the record's value (null stays null). */
    public record HeaderView(String name, JsonNode value) {
    }

    public static RecordView of(ConsumerRecord<byte[], byte[]> record, EmbeddedFormat format, JsonMapper mapper) {
        List<HeaderView> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(new HeaderView(header.key(), format.headerToJson(header.value())));
        }
        return new RecordView(record.topic(), format.toJson(record.key(), mapper), format.toJson(record.value(), mapper),
            record.partition(), record.offset(), record.timestamp(), headers);
    }
}
