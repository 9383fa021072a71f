package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

/**
 * Corrupt batch headers as issue 21's fuzzer sent them (seed 1): kafka-clients throws IllegalArgumentException for
 * a batch length that overflows ({@code newLimit < 0}) and for a codec id no codec has, which failed the whole
 * Produce request with UNKNOWN_SERVER_ERROR and an ERROR line with a stack trace. Now the partition is
 * CORRUPT_MESSAGE, and a corrupt partition has no batches to hide from the transactional checks.
 */
class ProducedBatchesTest {

    private static ByteBuffer batch() {
        MemoryRecords records = MemoryRecords.withRecords(Compression.gzip().build(),
            new SimpleRecord(1L, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)));
        ByteBuffer b = ByteBuffer.allocate(records.sizeInBytes());
        b.put(records.buffer().duplicate()).flip();
        return b;
    }

    @Test
    void aBatchLengthThatOverflowsIsCorruptNotAServerError() {
        ByteBuffer b = batch();
        b.putInt(8, Integer.MAX_VALUE); // batch length: MAX_VALUE + 12 overflows the limit computation

        ProducedBatches.Refusal refusal = ProducedBatches.check((short) 9, MemoryRecords.readableRecords(b));

        assertThat(refusal).isNotNull();
        assertThat(refusal.error()).isIn(Errors.CORRUPT_MESSAGE, Errors.INVALID_RECORD);
        assertThat(ProducedBatches.readable(MemoryRecords.readableRecords(b))).isEmpty();
    }

    @Test
    void anUnknownCodecIdIsCorruptNotAServerError() {
        ByteBuffer b = batch();
        b.putShort(21, (short) ((b.getShort(21) & ~0x7) | 7));
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 21, b.limit() - 21);
        b.putInt(17, (int) crc.getValue());

        ProducedBatches.Refusal refusal = ProducedBatches.check((short) 9, MemoryRecords.readableRecords(b));

        assertThat(refusal).isNotNull();
        assertThat(refusal.error()).isEqualTo(Errors.CORRUPT_MESSAGE);
        assertThat(refusal.message()).contains("compression type id");
        assertThat(ProducedBatches.readable(MemoryRecords.readableRecords(b))).isEmpty();
    }

    @Test
    void validBatchesPassAndAreRead() {
        MemoryRecords records = MemoryRecords.readableRecords(batch());
        assertThat(ProducedBatches.check((short) 9, records)).isNull();
        assertThat(ProducedBatches.readable(records)).hasSize(1);
    }
}
