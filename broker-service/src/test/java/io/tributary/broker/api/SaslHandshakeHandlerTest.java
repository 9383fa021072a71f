package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.junit.jupiter.api.Test;

/**
 * {@link SaslHandshakeHandler}: a SaslHandshake that reaches the request handler (on a listener
 * without SASL, or after authentication) is ILLEGAL_SASL_STATE with no mechanisms, as Kafka answers,
 * in both versions.
 */
class SaslHandshakeHandlerTest {

    private final SaslHandshakeHandler handler = new SaslHandshakeHandler();

    @Test
    void aHandshakeOutsideASaslExchangeIsIllegalSaslState() {
        for (short version = 0; version <= 1; version++) {
            SaslHandshakeRequest request = new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                .setMechanism("PLAIN")).build(version);

            SaslHandshakeResponse response = Wire.exchange(handler, request, Wire.ALICE);

            assertThat(response.error()).as("v%d", version).isEqualTo(Errors.ILLEGAL_SASL_STATE);
            assertThat(response.enabledMechanisms()).isEmpty();
        }
    }
}
