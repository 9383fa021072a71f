package io.tributary.faults.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CampaignTest {

    @Test
    void durationsAreDrawnWithinTheirRangeAndRepeatWithTheSeed() {
        Random random = new Random(21);
        Random again = new Random(21);
        for (int i = 0; i < 1000; i++) {
            Duration d = Campaign.between(Duration.ofMillis(3500), Duration.ofSeconds(5), random);
            assertThat(d).isBetween(Duration.ofMillis(3500), Duration.ofSeconds(5));
            assertThat(Campaign.between(Duration.ofMillis(3500), Duration.ofSeconds(5), again)).isEqualTo(d);
        }
        assertThat(Campaign.between(Duration.ofSeconds(2), Duration.ofSeconds(2), random))
                .isEqualTo(Duration.ofSeconds(2));
    }
}
