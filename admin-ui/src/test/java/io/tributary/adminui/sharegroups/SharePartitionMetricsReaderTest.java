package io.tributary.adminui.sharegroups;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.sharegroups.SharePartitionMetricsReader.Partition;
import io.tributary.adminui.sharegroups.SharePartitionMetricsReader.PartitionMetrics;
import io.tributary.adminui.sharegroups.SharePartitionMetricsReader.Reading;
import io.tributary.adminui.testing.StubRestProxy;
import io.tributary.adminui.throughput.ThroughputService.Target;
import io.tributary.testing.TestPorts;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reading a share group's share-partition meters out of canned broker metrics: only the group's series,
 * archived records by reason, values of one partition summed over brokers, and a broker that cannot be
 * read (closed port, an error status) named rather than failing the read.
 */
class SharePartitionMetricsReaderTest {

    /** Broker 0 leads jobs-0 and jobs-1 of group workers; another group's series and other metrics beside them. */
    private static final String BROKER_0 = """
        # HELP kafka_server_sharepartitionmetrics_inflightmessagecount Records in flight in the share-partition
        # TYPE kafka_server_sharepartitionmetrics_inflightmessagecount gauge
        kafka_server_sharepartitionmetrics_inflightmessagecount{group="workers",partition="0",topic="jobs"} 7.0
        kafka_server_sharepartitionmetrics_inflightmessagecount{group="workers",partition="1",topic="jobs"} 0.0
        kafka_server_sharepartitionmetrics_inflightmessagecount{group="others",partition="0",topic="jobs"} 99.0
        kafka_server_sharepartitionmetrics_inflightbatchcount{group="workers",partition="0",topic="jobs"} 2.0
        # TYPE kafka_server_sharepartitionmetrics_acquisitionlocktimeoutpersec_total counter
        kafka_server_sharepartitionmetrics_acquisitionlocktimeoutpersec_total{group="workers",partition="0",topic="jobs"} 4.0
        kafka_server_sharepartitionmetrics_acquisitionlocktimeoutpersec_total{group="workers",partition="1",topic="jobs"} 0.0
        # TYPE tributary_share_partition_archived_records_total counter
        tributary_share_partition_archived_records_total{group="workers",partition="0",reason="rejected",topic="jobs"} 3.0
        tributary_share_partition_archived_records_total{group="workers",partition="0",reason="delivery_limit",topic="jobs"} 1.0
        tributary_share_partition_archived_records_total{group="workers",partition="1",reason="rejected",topic="jobs"} 0.0
        tributary_share_partition_archived_records_total{group="workers",partition="1",reason="delivery_limit",topic="jobs"} 0.0
        tributary_share_partition_archived_records_total{group="others",partition="0",reason="rejected",topic="jobs"} 50.0
        kafka_server_brokertopicmetrics_messagesin_total{topic="jobs"} 1000.0
        """;

    /** Broker 1 still reports jobs-1 (a leadership moving) and leads a partition of another topic. */
    private static final String BROKER_1 = """
        kafka_server_sharepartitionmetrics_inflightmessagecount{group="workers",partition="1",topic="jobs"} 5.0
        tributary_share_partition_archived_records_total{group="workers",partition="1",reason="rejected",topic="jobs"} 2.0
        kafka_server_sharepartitionmetrics_inflightmessagecount{group="workers",partition="0",topic="audit"} 1.0
        """;

    private StubRestProxy brokers;

    @BeforeEach
    void start() throws IOException {
        brokers = new StubRestProxy().on("GET", "/b0/actuator/prometheus", 200, BROKER_0)
            .on("GET", "/b1/actuator/prometheus", 200, BROKER_1)
            .on("GET", "/b2/actuator/prometheus", 503, "");
    }

    @AfterEach
    void stop() {
        brokers.close();
    }

    private Target broker(int id) {
        return new Target(id, brokers.url().resolve("/b" + id + "/actuator/prometheus"));
    }

    @Test
    void readsTheGroupsSharePartitionsSummedOverTheBrokersThatReportThem() {
        Reading reading = new SharePartitionMetricsReader(() -> List.of(broker(0), broker(1)), Duration.ofSeconds(2))
            .read("workers");

        assertThat(reading.unreachable()).isEmpty();
        assertThat(reading.partitions()).containsExactlyInAnyOrderEntriesOf(Map.of(
            new Partition("jobs", 0), new PartitionMetrics(7, 3, 1, 4),
            new Partition("jobs", 1), new PartitionMetrics(5, 2, 0, 0),
            new Partition("audit", 0), new PartitionMetrics(1, 0, 0, 0)));
    }

    @Test
    void brokersThatCannotBeReadAreNamedAndTheOthersStillRead() {
        Target closed = new Target(3, URI.create("http://127.0.0.1:" + TestPorts.freePort() + "/actuator/prometheus"));
        Reading reading = new SharePartitionMetricsReader(() -> List.of(broker(2), broker(0), closed),
            Duration.ofSeconds(2)).read("workers");

        assertThat(reading.unreachable()).containsExactly(2, 3);
        assertThat(reading.partitions()).containsEntry(new Partition("jobs", 0), new PartitionMetrics(7, 3, 1, 4))
            .hasSize(2);
    }

    @Test
    void aGroupNoBrokerReportsHasNoPartitions() {
        assertThat(SharePartitionMetricsReader.metrics("nobody", List.of(BROKER_0, BROKER_1))).isEmpty();
        assertThat(new SharePartitionMetricsReader(List::of, Duration.ofSeconds(2)).read("workers"))
            .isEqualTo(new Reading(Map.of(), List.of()));
    }
}
