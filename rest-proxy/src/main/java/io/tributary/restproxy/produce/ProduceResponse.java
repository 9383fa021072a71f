package io.tributary.restproxy.produce;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A v2 produce response: one {@link PartitionOffset} per request record, in request order. The
 * schema ids are always null (no schema registry formats are served).
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ProduceResponse(
        @JsonProperty("key_schema_id") Integer keySchemaId,
        @JsonProperty("value_schema_id") Integer valueSchemaId,
        List<PartitionOffset> offsets) {

    public ProduceResponse(List<PartitionOffset> offsets) {
        this(null, null, offsets);
    }
}
