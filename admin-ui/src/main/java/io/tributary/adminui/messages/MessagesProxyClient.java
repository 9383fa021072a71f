package io.tributary.adminui.messages;

import io.tributary.adminui.messages.MessageViews.ProxyOffsets;
import io.tributary.adminui.messages.MessageViews.ProxyRecord;
import io.tributary.adminui.messages.MessageViews.ProxySearchRequest;
import io.tributary.adminui.messages.MessageViews.ProxySearchResults;
import io.tributary.adminui.messages.MessageViews.ProxySearchStatus;
import io.tributary.adminui.proxy.ProxyResources.ErrorBody;
import io.tributary.adminui.proxy.CallerIdentity;
import io.tributary.adminui.proxy.RestProxyException;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The REST proxy's record endpoints as the message browser uses them: partition offsets and reads
 * (binary format, so bytes are exact), v3 produce, v3 search, and the SSE record stream. Errors as
 * in {@link io.tributary.adminui.proxy.RestProxyClient}: a {@link RestProxyException} with the
 * proxy's status and message, 502 when it cannot be reached. Thread-safe.
 */
@Component
public class MessagesProxyClient {

    /** The proxy's binary embedded format. */
    static final MediaType BINARY = MediaType.parseMediaType("application/vnd.kafka.binary.v2+json");
    /** Longest wait of a read at the log end (the proxy long-polls there), ms. */
    static final long READ_TIMEOUT_MS = 300;
    /** Most key and value bytes one page reads. */
    static final long MAX_PAGE_BYTES = 4L * 1024 * 1024;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final RestClient http;
    private final RestProxyLocator locator;
    private final HttpClient streams;

    /** Talks to the proxy {@code locator} gives, with the timeouts of {@code properties}. */
    public MessagesProxyClient(RestProxyProperties properties, RestProxyLocator locator) {
        this.locator = locator;
        this.http = RestProxyConfiguration.restClient(properties, locator);
        this.streams = RestProxyConfiguration.httpClient(properties.connectTimeout(), locator).build();
    }

    /** A partition's [beginning, end) offsets. */
    public ProxyOffsets offsets(String topic, int partition) {
        return call(() -> http.get().uri("/topics/{t}/partitions/{p}/offsets", topic, partition)
            .accept(MediaType.APPLICATION_JSON).retrieve().onStatus(HttpStatusCode::isError, MessagesProxyClient::fail)
            .body(ProxyOffsets.class));
    }

    /**
     * Up to {@code count} records of a partition from {@code offset}, or from the first record at or
     * after {@code timestamp} when offset is null; with {@code committed}, only committed transactions'
     * records (the proxy reads with {@code isolation_level=read_committed}, up to the last stable offset).
     */
    public List<ProxyRecord> read(String topic, int partition, Long offset, Long timestamp, int count,
            boolean committed) {
        List<ProxyRecord> records = call(() -> http.get().uri(uri -> {
            uri.path("/topics/{t}/partitions/{p}/records").queryParam("count", count)
                .queryParam("max_bytes", MAX_PAGE_BYTES).queryParam("timeout", READ_TIMEOUT_MS)
                .queryParam("format", "binary");
            if (committed) {
                uri.queryParam("isolation_level", "read_committed");
            }
            if (offset != null) {
                uri.queryParam("offset", offset);
            } else {
                uri.queryParam("timestamp", timestamp);
            }
            return uri.build(topic, partition);
        }).accept(BINARY).retrieve().onStatus(HttpStatusCode::isError, MessagesProxyClient::fail)
            .body(new ParameterizedTypeReference<List<ProxyRecord>>() { }));
        return records == null ? List.of() : records;
    }

    /** Produces one record (v3); answers the proxy's per-record answer, failures thrown. */
    public JsonNode produce(String clusterId, String topic, JsonNode record) {
        String answer = call(() -> http.post().uri("/v3/clusters/{c}/topics/{t}/records", clusterId, topic)
            .contentType(MediaType.APPLICATION_JSON).body(record).retrieve()
            .onStatus(HttpStatusCode::isError, MessagesProxyClient::fail).body(String.class));
        String first = answer == null ? "" : answer.strip().lines().findFirst().orElse("");
        JsonNode result;
        try {
            result = JSON.readTree(first);
        } catch (JacksonException e) {
            throw new RestProxyException(502, null, "The REST proxy's produce answer is not JSON: " + first);
        }
        int code = result.path("error_code").asInt(500);
        if (code != 200) {
            // Kafka-style codes (40402) carry the HTTP status in their first three digits.
            int status = code >= 1000 ? code / 100 : code;
            throw new RestProxyException(status >= 400 && status < 600 ? status : 502, code,
                result.path("message").asString("The REST proxy did not produce the record"));
        }
        return result;
    }

    /** Starts a v3 search. */
    public ProxySearchStatus startSearch(String clusterId, String topic, ProxySearchRequest request) {
        return call(() -> http.post().uri("/v3/clusters/{c}/topics/{t}/searches", clusterId, topic)
            .contentType(MediaType.APPLICATION_JSON).body(request).retrieve()
            .onStatus(HttpStatusCode::isError, MessagesProxyClient::fail).body(ProxySearchStatus.class));
    }

    /** A search's progress. */
    public ProxySearchStatus search(String clusterId, String topic, String id) {
        return call(() -> http.get().uri("/v3/clusters/{c}/topics/{t}/searches/{id}", clusterId, topic, id)
            .retrieve().onStatus(HttpStatusCode::isError, MessagesProxyClient::fail).body(ProxySearchStatus.class));
    }

    /** The first {@code limit} matches of a search, binary format. */
    public ProxySearchResults searchResults(String clusterId, String topic, String id, int limit) {
        return call(() -> http.get().uri(uri -> uri.path("/v3/clusters/{c}/topics/{t}/searches/{id}/results")
                .queryParam("cursor", 0).queryParam("limit", limit).queryParam("format", "binary")
                .build(clusterId, topic, id))
            .retrieve().onStatus(HttpStatusCode::isError, MessagesProxyClient::fail).body(ProxySearchResults.class));
    }

    /** Cancels a search. */
    public void cancelSearch(String clusterId, String topic, String id) {
        call(() -> http.delete().uri("/v3/clusters/{c}/topics/{t}/searches/{id}", clusterId, topic, id).retrieve()
            .onStatus(HttpStatusCode::isError, MessagesProxyClient::fail).toBodilessEntity());
    }

    /**
     * Opens the proxy's SSE stream of a topic (binary format) from the log end, or after
     * {@code lastEventId}, as the calling thread's signed-in user; with {@code committed}, only
     * committed transactions' records. The caller closes the stream; an error answer is thrown before that.
     */
    public InputStream openStream(String topic, String lastEventId, boolean committed) {
        URI base = locator.current();
        UriComponentsBuilder builder = UriComponentsBuilder.fromUri(base).path("/topics/{t}/records/stream")
            .queryParam("from", "end").queryParam("format", "binary");
        if (committed) {
            builder.queryParam("isolation_level", "read_committed");
        }
        URI uri = builder.build(topic);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Accept", MediaType.TEXT_EVENT_STREAM_VALUE);
        if (lastEventId != null && !lastEventId.isBlank()) {
            request.header("Last-Event-ID", lastEventId);
        }
        String authorization = CallerIdentity.currentAuthorization();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<InputStream> response;
        try {
            response = streams.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            locator.failed(base);
            throw RestProxyException.noAnswer(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RestProxyException(502, null, "Interrupted opening the record stream");
        }
        if (response.statusCode() != 200) {
            try (InputStream body = response.body()) {
                throw error(response.statusCode(), body.readAllBytes(), "GET", uri.getPath());
            } catch (IOException e) {
                throw new RestProxyException(response.statusCode(), null, "REST proxy answered "
                    + response.statusCode() + " to GET " + uri.getPath());
            }
        }
        return response.body();
    }

    private static <T> T call(Supplier<T> request) {
        try {
            return request.get();
        } catch (ResourceAccessException e) {
            throw RestProxyException.noAnswer(e);
        }
    }

    private static void fail(org.springframework.http.HttpRequest request, ClientHttpResponse response)
            throws IOException {
        throw error(response.getStatusCode().value(), response.getBody().readAllBytes(), request.getMethod().name(),
            request.getURI().getPath());
    }

    /** The proxy's error body {@code {"error_code", "message"}} as an exception, or its text. */
    static RestProxyException error(int status, byte[] body, String method, String path) {
        try {
            ErrorBody error = JSON.readValue(body, ErrorBody.class);
            if (error != null && error.message() != null) {
                return new RestProxyException(status, error.errorCode(), error.message());
            }
        } catch (JacksonException notJson) {
            // say what we got
        }
        String text = new String(body, StandardCharsets.UTF_8).strip();
        return new RestProxyException(status, null, "REST proxy answered " + status + " to " + method + " " + path
            + (text.isEmpty() ? "" : ": " + (text.length() <= 200 ? text : text.substring(0, 200) + "…")));
    }
}
