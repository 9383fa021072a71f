package io.tributary.broker.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.apache.kafka.server.common.TransactionVersion;
import org.junit.jupiter.api.Test;

/** The records of {@code __transaction_state}: Kafka's layouts, read back as written. */
class TransactionLogRecordsTest {

    private static final TopicPartition A0 = new TopicPartition("a", 0);

    private static TransactionMetadata ongoing() {
        return TransactionMetadata.initial("txn-1", 77L, 45_000, 1_000)
            .withEpoch((short) 0, RecordBatch.NO_PRODUCER_EPOCH, 45_000, 1_000)
            .withPartitionsAdded(Set.of(A0), 2_000);
    }

    @Test
    void metadataIsReadBackAsWritten() {
        TransactionMetadata written = ongoing();

        TransactionLogRecords.Read read = TransactionLogRecords.read(
            ByteBuffer.wrap(TransactionLogRecords.key("txn-1")),
            ByteBuffer.wrap(TransactionLogRecords.value(written))).orElseThrow();

        assertThat(read).isEqualTo(new TransactionLogRecords.Read.Metadata(written));
    }

    @Test
    void fromTransactionVersionOneTheValueIsFlexibleVersionOneAndReadBack() {
        TransactionMetadata written = ongoing();
        byte[] value = TransactionLogRecords.value(written, TransactionVersion.TV_1);

        assertThat(ByteBuffer.wrap(value).getShort()).as("value version").isEqualTo((short) 1);
        assertThat(TransactionLogRecords.read(ByteBuffer.wrap(TransactionLogRecords.key("txn-1")), ByteBuffer.wrap(value)))
            .contains(new TransactionLogRecords.Read.Metadata(written));
    }

    @Test
    void aNullValueRemovesTheId() {
        assertThat(TransactionLogRecords.read(ByteBuffer.wrap(TransactionLogRecords.key("txn-1")), null))
            .contains(new TransactionLogRecords.Read.Tombstone("txn-1"));
    }

    @Test
    void theBytesAreKafkasVersionZeroLayouts() {
        ByteBuffer key = ByteBuffer.wrap(TransactionLogRecords.key("txn-1"));
        assertThat(key.getShort()).as("key version").isZero();
        assertThat(string(key)).isEqualTo("txn-1");
        assertThat(key.hasRemaining()).isFalse();

        ByteBuffer value = ByteBuffer.wrap(TransactionLogRecords.value(ongoing()));
        assertThat(value.getShort()).as("value version").isZero();
        assertThat(value.getLong()).as("producer id").isEqualTo(77L);
        assertThat(value.getShort()).as("producer epoch").isZero();
        assertThat(value.getInt()).as("transaction timeout").isEqualTo(45_000);
        assertThat(value.get()).as("status").isEqualTo(TransactionState.ONGOING.id());
        assertThat(value.getInt()).as("topics").isEqualTo(1);
        assertThat(string(value)).isEqualTo("a");
        assertThat(value.getInt()).as("partitions of a").isEqualTo(1);
        assertThat(value.getInt()).isZero();
        assertThat(value.getLong()).as("last update").isEqualTo(2_000);
        assertThat(value.getLong()).as("start").isEqualTo(2_000);
        assertThat(value.hasRemaining()).isFalse();
    }

    @Test
    void anIdGoesToThePartitionKafkaWouldChoose() {
        assertThat(TransactionLogRecords.partitionFor("txn-1", 50)).isEqualTo(Math.abs("txn-1".hashCode()) % 50);
        assertThat("polygenelubricants".hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(TransactionLogRecords.partitionFor("polygenelubricants", 50))
            .as("Kafka's abs maps Integer.MIN_VALUE to 0").isZero();
    }

    private static String string(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.getShort()];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
