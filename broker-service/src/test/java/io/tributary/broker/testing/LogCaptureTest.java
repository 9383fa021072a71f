package io.tributary.broker.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The secret check catches a secret in a message and in an exception, and passes clean logs. */
class LogCaptureTest {

    @Test
    void aSecretInAMessageOrAnExceptionIsCaught() {
        try (LogCapture logs = LogCapture.open()) {
            LoggerFactory.getLogger("test").info("connecting with password {}", "s3cret-in-message");
            LoggerFactory.getLogger("test").warn("failed", new IllegalStateException("s3cret-in-exception"));
            logs.assertNoLineContains("never-logged");
            assertThatThrownBy(() -> logs.assertNoLineContains("s3cret-in-message")).isInstanceOf(AssertionError.class);
            assertThatThrownBy(() -> logs.assertNoLineContains("s3cret-in-exception"))
                .isInstanceOf(AssertionError.class);
        }
    }
}
