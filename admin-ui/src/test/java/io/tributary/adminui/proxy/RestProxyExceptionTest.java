package io.tributary.adminui.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.ResourceAccessException;

/** Messages of proxy failures say what happened, from the cause chain; never "null". */
class RestProxyExceptionTest {

    @Test
    void aRefusedConnectionWithoutMessageIsNamed() {
        // What the JDK's HTTP client raises for a port nobody listens on, as Spring wraps it.
        ConnectException refused = new ConnectException();
        refused.initCause(new ClosedChannelException());
        ResourceAccessException failure = new ResourceAccessException("I/O error on GET request for "
            + "\"http://127.0.0.1:8082/v3/clusters\": null", refused);

        RestProxyException e = RestProxyException.noAnswer(failure);

        assertThat(e.getMessage()).isEqualTo("The REST proxy did not answer: connection refused (ConnectException)");
        assertThat(e.status()).isEqualTo(502);
        assertThat(e.unreachable()).isTrue();
        assertThat(e.getCause()).isSameAs(failure);
    }

    @Test
    void theDeepestCausesMessageAndClassAreUsed() {
        assertThat(RestProxyException.describe(new ResourceAccessException("outer",
            new HttpConnectTimeoutException("HTTP connect timed out"))))
            .isEqualTo("HTTP connect timed out (HttpConnectTimeoutException)");
        assertThat(RestProxyException.describe(new RuntimeException(new ClosedChannelException())))
            .isEqualTo("ClosedChannelException");
        assertThat(RestProxyException.describe(new IllegalStateException("null"))).isEqualTo("IllegalStateException");
        assertThat(RestProxyException.describe(null)).isEqualTo("no reason given");
    }

    @Test
    void errorsTheProxyAnsweredAreNotUnreachable() {
        assertThat(new RestProxyException(404, 40401, "Topic 'x' not found.").unreachable()).isFalse();
        assertThat(RestProxyException.noProxy("No REST proxy is registered").unreachable()).isTrue();
    }
}
