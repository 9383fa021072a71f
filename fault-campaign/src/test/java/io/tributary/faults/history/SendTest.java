package io.tributary.faults.history;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SendTest {

    @Test
    void exactlyTheOkSendsHaveAnAcknowledgedOffset() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Send("p", "t", OptionalInt.of(0), "v", true, 0, 1,
                Outcome.INFO, OptionalLong.of(3))).withMessageContaining("is INFO with partition");
        assertThatIllegalArgumentException().isThrownBy(() -> new Send("p", "t", OptionalInt.of(0), "v", true, 0, 1,
                Outcome.OK, OptionalLong.empty())).withMessageContaining("is OK");
        assertThatIllegalArgumentException().isThrownBy(() -> Send.ok("p", HistoryBuilder.P0, "v", 0, 5, 4))
                .withMessageContaining("completed at 4 ns, before its invocation at 5 ns");
    }
}
