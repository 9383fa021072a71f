package io.tributary.restproxy.produce;

import java.util.List;
import org.apache.kafka.common.header.Header;

/**
 * A record decoded from a request, ready to send.
 *
 * @param partition the partition asked for, or null to let the producer's partitioner choose
 *                  (murmur2 of the key, sticky batches for null keys)
 * @param key       key bytes or null
 * @param value     value bytes or null (a tombstone on a compacted topic)
 * @param headers   record headers, possibly empty
 */
public record OutgoingRecord(Integer partition, byte[] key, byte[] value, List<Header> headers) {

    /** Key and value bytes, the figure counted as bytes produced. */
    public int size() {
        return (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
    }
}
