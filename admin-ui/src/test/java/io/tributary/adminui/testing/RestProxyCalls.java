package io.tributary.adminui.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Plain HTTP GETs the browser steps make beside the browser: to the REST proxy, to check what the UI
 * showed against the cluster, and to the UI's actuator. Thread-safe.
 */
public final class RestProxyCalls {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private RestProxyCalls() {
    }

    /** GET {@code uri}, its body as text; fails after 10 s. */
    public static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    /** The id of the (one) cluster the proxy at {@code restProxy} serves. */
    public static String clusterId(URI restProxy) throws IOException, InterruptedException {
        return get(restProxy.resolve("/v3/clusters")).body()
            .replaceAll("(?s).*\"cluster_id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    }
}
