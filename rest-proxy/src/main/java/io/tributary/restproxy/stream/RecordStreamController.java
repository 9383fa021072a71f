package io.tributary.restproxy.stream;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.format.EmbeddedFormat;
import java.util.Locale;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** A topic's records as Server-Sent Events. */
@RestController
@Tag(name = "Streaming", description = "Records as Server-Sent Events, resumable with Last-Event-ID")
public class RecordStreamController {

    private final RecordStreamer streamer;

    public RecordStreamController(RecordStreamer streamer) {
        this.streamer = streamer;
    }

    @GetMapping(path = "/topics/{topic}/records/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "Stream a topic's records (Server-Sent Events)",
        description = "One `record` event per record, its data the record as JSON (topic, key, value, partition, "
            + "offset, timestamp, headers). The event id lists every partition's next offset "
            + "(`0:17,1:4`): reconnecting with Last-Event-ID resumes after the last event received. "
            + "Errors: 40401, 400 bad Last-Event-ID, 503 too many streams.")
    public SseEmitter stream(@PathVariable String topic,
            @Parameter(description = "where to start on partitions Last-Event-ID does not name: end (default) or "
                + "beginning") @RequestParam(defaultValue = "end") String from,
            @Parameter(description = "json (default) or binary") @RequestParam(defaultValue = "json") String format,
            @Parameter(description = "read_uncommitted (default) or read_committed: only committed transactions' "
                + "records") @RequestParam(name = "isolation_level", required = false) String isolationLevel,
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        RecordStreamer.Start start = switch (from.toLowerCase(Locale.ROOT)) {
            case "beginning", "earliest" -> RecordStreamer.Start.BEGINNING;
            case "end", "latest" -> RecordStreamer.Start.END;
            default -> throw RestError.BAD_REQUEST.exception("from must be beginning or end");
        };
        EmbeddedFormat embedded;
        try {
            embedded = EmbeddedFormat.forName(format);
        } catch (RestException e) {
            throw RestError.BAD_REQUEST.exception("format must be json or binary");
        }
        String isolation;
        try {
            isolation = io.tributary.restproxy.config.KafkaConsumerFactory.isolationLevel(isolationLevel);
        } catch (RuntimeException e) {
            throw RestError.BAD_REQUEST.exception("isolation_level must be read_committed or read_uncommitted");
        }
        return streamer.open(topic, start, lastEventId, embedded, isolation);
    }
}
