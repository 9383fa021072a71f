package io.tributary.restproxy.share;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Request and response bodies of the share consumer (queue) API, in the v2 consumer API's style. */
public final class ShareBodies {

    private ShareBodies() {
    }

    /** Answer to creating a share consumer instance. */
    public record CreatedShareInstance(@JsonProperty("instance_id") String instanceId,
            @JsonProperty("base_uri") String baseUri) {
    }

    /** The topics to subscribe to (replacing the earlier list). */
    public record ShareSubscription(@Schema(example = "[\"jobs\"]") List<String> topics) {
    }

    /** One header of a record; its value base64 for the binary format, UTF-8 text for json (as v3 produce takes them). */
    public record SharedHeader(String key, JsonNode value) {
    }

    /**
     * One record of {@code GET .../records}: key, value and header values embedded in the instance's
     * format; {@code delivery_count} is 1 on first delivery, one more on each redelivery.
     */
    public record SharedRecord(String topic, int partition, long offset, JsonNode key, JsonNode value,
            List<SharedHeader> headers, @JsonProperty("delivery_count") Integer deliveryCount) {
    }

    /** One acknowledgement: a record by topic, partition and offset, and a type (else the request's). */
    public record RecordAcknowledgement(@Schema(example = "jobs") String topic, @Schema(example = "0") Integer partition,
            @Schema(example = "42") Long offset,
            @Schema(description = "ACCEPT, RELEASE, REJECT or RENEW", example = "ACCEPT") String type) {
    }

    /**
     * Acknowledgements: each record listed, or, without a list, every record the instance holds, with
     * {@code type}.
     */
    public record AcknowledgeRequest(
            @Schema(description = "type of the records listed without one, or of every record held when "
                + "\"acknowledgements\" is absent", example = "ACCEPT") String type,
            List<RecordAcknowledgement> acknowledgements) {
    }

    /** Answer to acknowledging: how many records were acknowledged, how many the instance still holds. */
    public record AcknowledgeResponse(int acknowledged, @JsonProperty("still_held") int stillHeld) {
    }
}
