package io.tributary.adminui.throughput;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/throughput}: the overview chart's cluster-wide rates of the last 15 minutes
 * ({@code {intervalSeconds, points: [{time, bytesIn, bytesOut, messagesIn}], missingBrokers}}).
 */
@RestController
public class ThroughputController {

    private final ThroughputService throughput;

    public ThroughputController(ThroughputService throughput) {
        this.throughput = throughput;
    }

    /** The points so far; the first call starts the scraping, so its answer has none yet. */
    @GetMapping("/api/throughput")
    public ThroughputService.Snapshot throughput() {
        return throughput.snapshot();
    }
}
