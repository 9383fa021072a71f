package io.tributary.adminui.throughput;

import io.tributary.adminui.proxy.CallerIdentity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/throughput}: the overview chart's cluster-wide rates of the last 15 minutes
 * ({@code {intervalSeconds, points: [{time, bytesIn, bytesOut, messagesIn}], missingBrokers}}).
 */
@RestController
public class ThroughputController {

    private final ThroughputService throughput;
    private final CallerIdentity.LastCaller viewer;

    /** @param viewer remembers who asked, so the background scrapes ask the proxy as them */
    public ThroughputController(ThroughputService throughput, CallerIdentity.LastCaller viewer) {
        this.throughput = throughput;
        this.viewer = viewer;
    }

    /** The points so far; the first call starts the scraping, so its answer has none yet. */
    @GetMapping("/api/throughput")
    public ThroughputService.Snapshot throughput() {
        viewer.remember();
        return throughput.snapshot();
    }
}
