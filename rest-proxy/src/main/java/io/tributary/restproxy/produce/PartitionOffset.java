package io.tributary.restproxy.produce;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.RestExceptionHandler;

/**
 * Where one produced record landed, or why it did not: partition and offset on success;
 * {@code error_code} (40301 when the brokers refused the caller, 50002, or 50003 when a retry may
 * succeed) and {@code error} on failure, as in the Confluent proxy. A body of the v2 produce
 * response: the code comes from the one table of error codes, {@link RestExceptionHandler#errorFor}.
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

    /** The answer for a record that failed with {@code exception} (the producer's). */
    public static PartitionOffset failure(Throwable exception) {
        return new PartitionOffset(null, null, RestExceptionHandler.errorFor(exception).code(),
            KafkaErrors.describe(exception));
    }
}
