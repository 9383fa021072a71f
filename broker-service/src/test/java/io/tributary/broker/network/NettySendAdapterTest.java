package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.DefaultFileRegion;
import java.io.File;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A fetch response with records read from a segment file goes out as a file region, not copied bytes. */
class NettySendAdapterTest {

    @TempDir
    Path dir;

    @Test
    void fileRecordsBecomeSharedFileRegionsAfterTheSizedHeader() throws Exception {
        File segment = dir.resolve("00000000000000000000.log").toFile();
        try (FileRecords file = FileRecords.open(segment)) {
            file.append(MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("a".getBytes()),
                new SimpleRecord("b".getBytes())));
            FileRecords slice = file.slice(0, file.sizeInBytes());
            LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> partitions = new LinkedHashMap<>();
            partitions.put(new TopicIdPartition(Uuid.randomUuid(), 0, "t"), new FetchResponseData.PartitionData()
                .setPartitionIndex(0).setErrorCode(Errors.NONE.code()).setHighWatermark(2).setRecords(slice));
            FetchResponse response = FetchResponse.of(Errors.NONE, 0, 0, partitions, List.of());
            short version = 12;
            List<Object> messages = NettySendAdapter.toMessages(response.toSend(
                new ResponseHeader(5, ApiKeys.FETCH.responseHeaderVersion(version)), version));

            assertThat(messages.get(0)).isInstanceOf(ByteBuf.class);
            DefaultFileRegion region = messages.stream().filter(m -> m instanceof DefaultFileRegion)
                .map(DefaultFileRegion.class::cast).findFirst().orElseThrow();
            assertThat(region).isInstanceOf(SharedFileRegion.class);
            assertThat(region.count()).isEqualTo(file.sizeInBytes());
            long total = messages.stream().mapToLong(m -> m instanceof ByteBuf b ? b.readableBytes()
                : ((DefaultFileRegion) m).count()).sum();
            assertThat(((ByteBuf) messages.get(0)).getInt(0)).isEqualTo((int) total - 4);

            // Releasing the region (after the send) must not close the segment's channel.
            region.release();
            assertThat(file.channel().isOpen()).isTrue();
            messages.stream().filter(m -> m instanceof ByteBuf).forEach(m -> ((ByteBuf) m).release());
        }
    }
}
