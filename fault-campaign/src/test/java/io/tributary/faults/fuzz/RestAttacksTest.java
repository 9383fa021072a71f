package io.tributary.faults.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RestAttacksTest {

    private final RestAttacks attacks = new RestAttacks("fuzz", 1024 * 1024 + 1);

    @Test
    void everyKindIsDrawnAndBuilt() {
        Random random = new Random(1);
        Set<RestAttack> seen = EnumSet.noneOf(RestAttack.class);
        for (int i = 0; i < 5_000; i++) {
            RestRequest r = attacks.next(random);
            seen.add(r.attack());
            assertThat(r.path()).startsWith("/");
        }
        assertThat(seen).containsExactlyInAnyOrder(RestAttack.values());
    }

    @Test
    void hugeBodiesAreOverTheLimit() {
        Random random = new Random(2);
        for (int i = 0; i < 5; i++) {
            assertThat(attacks.next(RestAttack.HUGE_BODY, random).body().length).isGreaterThan(1024 * 1024);
        }
    }

    @Test
    void aSeedReplaysTheSameRequests() {
        for (RestAttack a : RestAttack.values()) {
            RestRequest x = attacks.next(a, new Random(9));
            RestRequest y = attacks.next(a, new Random(9));
            assertThat(x.body()).isEqualTo(y.body());
            assertThat(x.path()).isEqualTo(y.path());
        }
    }

    @Test
    void malformedJsonIsNeverTheValidBody() {
        Random random = new Random(3);
        for (int i = 0; i < 200; i++) {
            String body = new String(attacks.next(RestAttack.MALFORMED_JSON, random).body(), StandardCharsets.UTF_8);
            // cut short, closed too often, nested without end, not UTF-8, or with JSON's forbidden NaN and quotes
            assertThat(!body.endsWith("]}") || body.contains("NaN")).as(body).isTrue();
        }
    }

    @Test
    void theErrorBodyPatternTakesConfluentErrorsOnly() {
        assertThat(RestFuzzer.ERROR_BODY.matcher("{\"error_code\":42201,\"message\":\"bad\"}").matches()).isTrue();
        assertThat(RestFuzzer.ERROR_BODY.matcher("{\"error_code\": 404, \"message\": null}").matches()).isTrue();
        assertThat(RestFuzzer.ERROR_BODY.matcher("<html>Bad Request</html>").matches()).isFalse();
        assertThat(RestFuzzer.ERROR_BODY.matcher("{\"timestamp\":1,\"status\":400,\"error\":\"Bad Request\"}").matches())
                .isFalse();
        assertThat(RestFuzzer.ERROR_BODY.matcher("").matches()).isFalse();
    }
}
