package io.tributary.adminui.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.throughput.PrometheusText.Sample;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reading the three throughput counters, and any metric's series with labels, out of the Prometheus text format. */
class PrometheusTextTest {

    @Test
    void sumsEachCounterOverTopicsAndIgnoresEverythingElse() {
        String text = """
            # HELP kafka_server_brokertopicmetrics_bytesin_total Bytes in
            # TYPE kafka_server_brokertopicmetrics_bytesin_total counter
            kafka_server_brokertopicmetrics_bytesin_total{topic="a"} 100.0
            kafka_server_brokertopicmetrics_bytesin_total{topic="b,c}\\"x"} 50.5
            kafka_server_brokertopicmetrics_bytesout_total{topic="a"} 7 1700000000000
            kafka_server_brokertopicmetrics_messagesin_total{topic="a"} 3.0
            kafka_server_brokertopicmetrics_messagesin_total{topic="b"} 4.0
            kafka_server_brokertopicmetrics_replicationbytesin_total 999.0
            kafka_server_brokertopicmetrics_bytesin_totalx{topic="a"} 999.0
            jvm_memory_used_bytes{area="heap"} 12345.0
            kafka_server_brokertopicmetrics_bytesin_total{topic="nan"} NaN
            kafka_server_brokertopicmetrics_bytesin_total{topic="broken"}
            """;
        assertThat(PrometheusText.parse(text)).isEqualTo(new Counters(150.5, 7, 7));
    }

    @Test
    void noSeriesIsZero() {
        assertThat(PrometheusText.parse("jvm_threads_live_threads 12.0\n")).isEqualTo(new Counters(0, 0, 0));
        assertThat(PrometheusText.parse("")).isEqualTo(new Counters(0, 0, 0));
    }

    @Test
    void readsCarriageReturnLineEndings() {
        assertThat(PrometheusText.parse("kafka_server_brokertopicmetrics_messagesin_total{topic=\"a\"} 2.0\r\n"))
            .isEqualTo(new Counters(0, 0, 2));
    }

    @Test
    void samplesCarryTheirLabelsUnescaped() {
        String text = """
            # TYPE m_total counter
            m_total{group="g",reason="rejected",topic="a \\"b\\" c,d}"} 3.0
            m_total{group="g\\\\h",topic="x"} 4 1700000000000
            m_total 5.0
            other{group="g"} 1.0
            m_total{group="g"} NaN
            m_total{group="unterminated} 6.0
            """;
        assertThat(PrometheusText.samples(text, Set.of("m_total"))).containsExactly(
            new Sample("m_total", Map.of("group", "g", "reason", "rejected", "topic", "a \"b\" c,d}"), 3.0),
            new Sample("m_total", Map.of("group", "g\\h", "topic", "x"), 4.0),
            new Sample("m_total", Map.of(), 5.0));
    }
}
