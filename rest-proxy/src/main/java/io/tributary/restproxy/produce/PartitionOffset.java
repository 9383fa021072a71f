package io.tributary.restproxy.produce;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Where one produced record landed, or why it did not: partition and offset on success;
 * {@code error_code} (40301 when the brokers refused the caller, 50002, or 50003 when a retry may
 * succeed) and {@code error} on failure, as in the Confluent proxy.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record PartitionOffset(
        Integer partition,
        Long offset,
        @JsonProperty("error_code") Integer errorCode,
        String error) {

    public static PartitionOffset success(int partition, long offset) {
        return new PartitionOffset(partition, offset, null, null);
    }

    public static PartitionOffset failure(int errorCode, String error) {
        return new PartitionOffset(null, null, errorCode, error);
    }
}
