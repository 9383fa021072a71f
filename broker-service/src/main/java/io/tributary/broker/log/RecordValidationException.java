package io.tributary.broker.log;

import java.util.List;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ProduceResponse.RecordError;

/**
 * An append rejected because of records in it, with the Kafka error code for the partition
 * and, where it applies, the index of each offending record in its batch (KIP-467: returned
 * in Produce v8+ as record errors).
 */
public class RecordValidationException extends ApiException {

    private final Errors error;
    private final List<RecordError> recordErrors;

    public RecordValidationException(Errors error, String message, List<RecordError> recordErrors) {
        super(message);
        this.error = error;
        this.recordErrors = List.copyOf(recordErrors);
    }

    public RecordValidationException(Errors error, String message) {
        this(error, message, List.of());
    }

    /** The partition-level error code. */
    public Errors error() {
        return error;
    }

    /** The records at fault, by index in their batch. */
    public List<RecordError> recordErrors() {
        return recordErrors;
    }
}
