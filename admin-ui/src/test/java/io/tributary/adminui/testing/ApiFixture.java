package io.tributary.adminui.testing;

import io.tributary.adminui.cluster.ClusterController;
import io.tributary.adminui.error.ApiExceptionHandler;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import io.tributary.adminui.proxy.TopicStates;
import io.tributary.adminui.security.Rights;
import io.tributary.adminui.topics.TopicsController;
import java.net.URI;
import java.time.Duration;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** The /api controllers and their error advice in a standalone MockMvc, talking HTTP to {@code proxyUrl}. */
public final class ApiFixture implements AutoCloseable {

    /** Far above any answer's time, even on a loaded 2-core machine: no test here waits for it. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(15);

    private final TopicStates states;
    private final MockMvc mvc;

    /** Wires the controllers as the application does, with a 2 s read timeout. */
    public ApiFixture(URI proxyUrl) {
        RestProxyClient client = new RestProxyConfiguration().restProxyClient(
            RestProxyProperties.of(proxyUrl, Duration.ofSeconds(2), READ_TIMEOUT),
            RestProxyLocator.fixed(proxyUrl));
        states = new TopicStates(client);
        mvc = MockMvcBuilders.standaloneSetup(new ClusterController(client, states),
                new TopicsController(client, states, Rights.unenforced()))
            .setControllerAdvice(new ApiExceptionHandler(RestProxyLocator.fixed(proxyUrl))).build();
    }

    /** The MockMvc to call /api with. */
    public MockMvc mvc() {
        return mvc;
    }

    @Override
    public void close() {
        states.destroy();
    }
}
