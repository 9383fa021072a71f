package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.junit.jupiter.api.Test;

/**
 * {@link SaslAuthenticateHandler}: a SaslAuthenticate that reaches the request handler, outside a
 * SASL exchange, is ILLEGAL_SASL_STATE with a message naming the listener, as Kafka answers.
 */
class SaslAuthenticateHandlerTest {

    @Test
    void anAuthenticateOutsideASaslExchangeIsIllegalSaslState() {
        SaslAuthenticateRequest request = new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
            .setAuthBytes(new byte[] {0, 'a', 0, 'b'})).build((short) 2);

        SaslAuthenticateResponse response = Wire.exchange(new SaslAuthenticateHandler(), request, Wire.ALICE);

        assertThat(response.error()).isEqualTo(Errors.ILLEGAL_SASL_STATE);
        assertThat(response.errorMessage()).contains("PLAINTEXT");
    }
}
