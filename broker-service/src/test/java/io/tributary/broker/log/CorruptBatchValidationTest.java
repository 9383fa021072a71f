package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.TP;
import static io.tributary.broker.log.LogTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

/**
 * Batches with a valid CRC but corrupt insides, as issue 21's fuzzer sent them (seed 1): a codec id no codec has
 * made the append fail with an IllegalArgumentException (UNKNOWN_SERVER_ERROR and an ERROR line with a stack
 * trace per request), and a snappy chunk claiming a huge size made snappy-java allocate it (an OutOfMemoryError on
 * a 256 MB broker, and its request never answered). Both are now INVALID_RECORD before anything is decompressed.
 */
class CorruptBatchValidationTest {

    private static final int ATTRIBUTES = 21;
    private static final int CRC = 17;

    private static MemoryRecords batch(Compression compression) {
        SimpleRecord[] records = new SimpleRecord[5];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SimpleRecord(System.currentTimeMillis(), ("k" + i).getBytes(StandardCharsets.UTF_8),
                ("a value that compresses, number " + i).getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(compression, records);
    }

    /** Rewrites the batch's CRC-32C so that only the corruption, not the checksum, is wrong. */
    private static MemoryRecords withValidCrc(ByteBuffer buffer) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.array(), ATTRIBUTES, buffer.limit() - ATTRIBUTES);
        buffer.putInt(CRC, (int) crc.getValue());
        MemoryRecords records = MemoryRecords.readableRecords(buffer);
        assertThat(records.batches().iterator().next().isValid()).as("CRC valid").isTrue();
        return records;
    }

    private static ByteBuffer copy(MemoryRecords records) {
        ByteBuffer b = ByteBuffer.allocate(records.sizeInBytes());
        b.put(records.buffer().duplicate()).flip();
        return b;
    }

    @Test
    void anUnknownCodecIdIsAnInvalidRecord() {
        ByteBuffer b = copy(batch(Compression.gzip().build()));
        b.putShort(ATTRIBUTES, (short) ((b.getShort(ATTRIBUTES) & ~0x7) | 6));
        MemoryRecords records = withValidCrc(b);

        assertThatThrownBy(() -> LogValidator.validateAndAssignOffsets(TP, records, 0, 0, config(),
                System.currentTimeMillis()))
            .isInstanceOfSatisfying(RecordValidationException.class,
                e -> assertThat(e.error()).isEqualTo(Errors.INVALID_RECORD))
            .hasMessageContaining("unknown compression codec");
    }

    @Test
    void aSnappyChunkClaimingMoreBytesThanTheBatchHoldsIsAnInvalidRecord() {
        ByteBuffer b = copy(batch(Compression.snappy().build()));
        int chunkLength = DefaultRecordBatch.RECORD_BATCH_OVERHEAD + 16; // after snappy-java's 16-byte header
        b.putInt(chunkLength, 0x7ff0_0000);
        MemoryRecords records = withValidCrc(b);

        assertThatThrownBy(() -> LogValidator.validateAndAssignOffsets(TP, records, 0, 0, config(),
                System.currentTimeMillis()))
            .isInstanceOfSatisfying(RecordValidationException.class,
                e -> assertThat(e.error()).isEqualTo(Errors.INVALID_RECORD))
            .hasMessageContaining("snappy chunk 0 claims");
    }

    @Test
    void aSnappyBlockClaimingAHugeUncompressedLengthIsAnInvalidRecord() {
        ByteBuffer b = copy(batch(Compression.snappy().build()));
        int block = DefaultRecordBatch.RECORD_BATCH_OVERHEAD + 16 + 4;
        // varint 0x7fffff00: ~2 GiB uncompressed out of a few dozen bytes
        b.put(block, (byte) 0x80).put(block + 1, (byte) 0xfe).put(block + 2, (byte) 0xff).put(block + 3, (byte) 0xff);
        b.put(block + 4, (byte) 0x07);
        MemoryRecords records = withValidCrc(b);

        assertThatThrownBy(() -> LogValidator.validateAndAssignOffsets(TP, records, 0, 0, config(),
                System.currentTimeMillis()))
            .isInstanceOf(RecordValidationException.class)
            .hasMessageContaining("uncompressed bytes");
    }

    @Test
    void validSnappyBatchesOfEverySizePass() {
        for (int n : new int[] {1, 10, 1000}) {
            SimpleRecord[] records = new SimpleRecord[n];
            for (int i = 0; i < n; i++) {
                records[i] = new SimpleRecord(System.currentTimeMillis(), null, new byte[i % 500]);
            }
            MemoryRecords batch = MemoryRecords.withRecords(Compression.snappy().build(), records);
            assertThat(SnappyFraming.problem(batch.buffer().slice(DefaultRecordBatch.RECORD_BATCH_OVERHEAD,
                batch.sizeInBytes() - DefaultRecordBatch.RECORD_BATCH_OVERHEAD))).as("%d records", n).isNull();
            LogValidator.validateAndAssignOffsets(TP, batch, 0, 0, config(), System.currentTimeMillis());
        }
    }
}
