package io.tributary.restproxy.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * A proxy with a tiny limit: one request per second, bursts of two. Requests sent back to back
 * soon find the bucket empty, however slow the machine, since each takes far less than the half
 * second two refills would need.
 */
@TestPropertySource(properties = {"rest-proxy.rate-limit.requests-per-second=1", "rest-proxy.rate-limit.burst=2"})
class RateLimitFilterTest extends ProxyTestBase {

    @Test
    void overTheLimitAnswers429WithRetryAfter() {
        List<Response> responses = new ArrayList<>();
        Response last;
        do {
            last = http.get("/topics");
            responses.add(last);
        } while (last.status() != 429 && responses.size() < 50);

        assertThat(last.status()).isEqualTo(429);
        assertThat(last.errorCode()).isEqualTo(42901);
        assertThat(Long.parseLong(last.header("Retry-After"))).isPositive();
        assertThat(responses.get(0).status()).isEqualTo(200);
    }

    @Test
    void probesAreNotLimited() {
        for (int i = 0; i < 5; i++) {
            assertThat(http.get("/actuator/health/liveness").status()).isEqualTo(200);
        }
    }
}
