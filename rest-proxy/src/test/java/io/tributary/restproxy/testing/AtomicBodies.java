package io.tributary.restproxy.testing;

import io.tributary.restproxy.testing.HttpJson.Response;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;

/** Requests and answers of atomic v3 produce ({@code records:atomic}) for tests. */
public final class AtomicBodies {

    private AtomicBodies() {
    }

    /** A body of entries with ids 1, 2, ... and STRING values, each to its partition (null: the partitioner's). */
    public static String entries(List<String> values, List<Integer> partitions) {
        StringBuilder body = new StringBuilder("{\"entries\":[");
        for (int i = 0; i < values.size(); i++) {
            body.append(i == 0 ? "" : ",").append("{\"id\":\"").append(i + 1).append('"');
            if (partitions.get(i) != null) {
                body.append(",\"partition_id\":").append(partitions.get(i));
            }
            body.append(",\"value\":{\"type\":\"STRING\",\"data\":\"").append(values.get(i)).append("\"}}");
        }
        return body.append("]}").toString();
    }

    /** Posts {@code body} to {@code topic}'s {@code records:atomic}, with the idempotency key unless null. */
    public static Response post(HttpJson client, String cluster, String topic, String key, String body) {
        HttpRequest.Builder request = client.request("/v3/clusters/" + cluster + "/topics/" + topic + "/records:atomic")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return client.send(request.build());
    }

    /**
     * Posts as a careful client does: again, with the same key, while the answer says the transaction
     * was aborted for a retriable reason or its outcome is unknown (at most 20 times).
     */
    public static Response postUntilSettled(HttpJson client, String cluster, String topic, String key, String body) {
        Response response = post(client, cluster, topic, key, body);
        for (int attempt = 1; attempt < 20 && response.status() >= 500 && response.body() != null
                && response.body().has("outcome"); attempt++) {
            response = post(client, cluster, topic, key, body);
        }
        return response;
    }

    /** The answer's successes as {@code partition * 1e6 + offset}, in order. */
    public static List<Long> offsets(Response response) {
        List<Long> offsets = new ArrayList<>();
        response.body().get("successes").forEach(s -> offsets.add(s.get("partition_id").asLong() * 1_000_000
            + s.get("offset").asLong()));
        return offsets;
    }
}
