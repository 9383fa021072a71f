package io.tributary.adminui.messages;

import io.tributary.adminui.messages.MessageViews.ExportRequest;
import io.tributary.adminui.messages.MessageViews.FieldError;
import io.tributary.adminui.messages.MessageViews.FilteredPage;
import io.tributary.adminui.messages.MessageViews.Message;
import io.tributary.adminui.messages.MessageViews.PartitionRange;
import io.tributary.adminui.proxy.RestProxyClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/topics/{name}/messages/filtered}: the Messages page filtered on the server by a
 * {@link MessageFilter} (a JSONPath condition, key and value text) with a bounded scan
 * ({@link FilteredScan}); and {@code /api/topics/{name}/messages/export}: the rows a page shows as
 * a JSON lines or CSV file ({@link MessageExport}). A malformed condition is a 400 whose body names
 * the field ({@code "field": "filter"}) and carries the parser's message.
 */
@RestController
@RequestMapping("/api")
public class FilteredMessagesController {

    /** The most records one filtered page tests. */
    static final long MAX_RECORDS = 50_000L;
    /** How long one filtered page may scan, ms (checked between reads of the partitions). */
    static final long TIME_BUDGET_MS = 10_000L;

    private final RestProxyClient proxy;
    private final MessagesProxyClient records;
    private final Clock clock;

    /** Scans through {@code records}; {@code proxy} lists a topic's partitions. */
    @Autowired
    public FilteredMessagesController(RestProxyClient proxy, MessagesProxyClient records) {
        this(proxy, records, Clock.systemUTC());
    }

    FilteredMessagesController(RestProxyClient proxy, MessagesProxyClient records, Clock clock) {
        this.proxy = proxy;
        this.records = records;
        this.clock = clock;
    }

    /**
     * Up to {@code count} (1..100) records of {@code partitions} ({@code all} or ids, as for the
     * unfiltered pages) that pass {@code filter} (a JSONPath filter condition, see {@link MessageFilter}),
     * contain {@code keyContains} in their key and {@code valueContains} in their value (ignoring case),
     * scanning from {@code from} ({@code oldest}, {@code newest}: backward, {@code offset},
     * {@code timestamp}, {@code after} or {@code before} a cursor) at most {@code maxRecords} records
     * (default and ceiling {@value #MAX_RECORDS}) and {@value #TIME_BUDGET_MS} ms.
     */
    @GetMapping("/topics/{name}/messages/filtered")
    public FilteredPage filtered(@PathVariable String name, @RequestParam(defaultValue = "all") String partitions,
            @RequestParam(defaultValue = "oldest") String from, @RequestParam(required = false) Long offset,
            @RequestParam(required = false) Long timestamp, @RequestParam(required = false) String cursor,
            @RequestParam(required = false) String filter, @RequestParam(required = false) String keyContains,
            @RequestParam(required = false) String valueContains, @RequestParam(defaultValue = "50") int count,
            @RequestParam(required = false) Long maxRecords, @RequestParam(defaultValue = "false") boolean committed) {
        MessageFilter test = MessageFilter.of(filter, keyContains, valueContains);
        if (count < 1 || count > MessagesController.MAX_COUNT) {
            throw MessagesController.bad("count must be between 1 and " + MessagesController.MAX_COUNT);
        }
        long bound = maxRecords == null ? MAX_RECORDS : maxRecords;
        if (bound < 1 || bound > MAX_RECORDS) {
            throw MessagesController.bad("maxRecords must be between 1 and " + MAX_RECORDS);
        }
        String mode = from.toLowerCase(Locale.ROOT);
        if ("offset".equals(mode) && (offset == null || offset < 0)) {
            throw MessagesController.bad("from=offset needs offset");
        }
        if ("timestamp".equals(mode) && (timestamp == null || timestamp < 0)) {
            throw MessagesController.bad("from=timestamp needs timestamp, ms since the epoch");
        }
        List<Integer> ids = MessagesController.partitionIds(proxy, name, partitions);
        FilteredScan.Result result;
        try {
            result = new FilteredScan(new MultiPartitionPages(records, committed), test, count, bound, TIME_BUDGET_MS,
                clock).scan(name, ids, mode, offset, timestamp, cursor);
        } catch (MessageFilter.InvalidExpressionException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw MessagesController.bad(e.getMessage());
        }
        List<Message> messages = result.matches().stream().map(PayloadDecoder::message).toList();
        return new FilteredPage(name, result.offsets().entrySet().stream().map(e -> new PartitionRange(e.getKey(),
            e.getValue().beginningOffset(), e.getValue().endOffset())).toList(), count, messages,
            result.previousCursor(), result.nextCursor(), result.scanned(), messages.size(),
            result.stoppedBy().name().toLowerCase(Locale.ROOT), result.elapsedMs(), bound, TIME_BUDGET_MS);
    }

    /**
     * The given messages (the rows a page shows) as a file to download: {@code format} {@code jsonl}
     * (JSON lines) or {@code csv}, named after the topic.
     */
    @PostMapping("/topics/{name}/messages/export")
    public ResponseEntity<byte[]> export(@PathVariable String name, @RequestParam String format,
            @RequestBody ExportRequest request) {
        List<Message> messages = request.messages() == null ? List.of() : request.messages();
        String body;
        MediaType type;
        switch (format.toLowerCase(Locale.ROOT)) {
            case "jsonl" -> {
                body = MessageExport.jsonLines(name, messages);
                type = MediaType.parseMediaType("application/x-ndjson");
            }
            case "csv" -> {
                body = MessageExport.csv(name, messages);
                type = MediaType.parseMediaType("text/csv");
            }
            default -> throw MessagesController.bad("format must be jsonl or csv");
        }
        String file = name.replaceAll("[^A-Za-z0-9._-]", "_") + "-messages." + format.toLowerCase(Locale.ROOT);
        return ResponseEntity.ok().contentType(new MediaType(type, StandardCharsets.UTF_8))
            .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(file).build().toString())
            .body(body.getBytes(StandardCharsets.UTF_8));
    }

    @ExceptionHandler(MessageFilter.InvalidExpressionException.class)
    ResponseEntity<FieldError> invalidExpression(MessageFilter.InvalidExpressionException e) {
        return ResponseEntity.status(HttpStatus.BAD_REQUEST).contentType(MediaType.APPLICATION_JSON)
            .body(new FieldError(400, null, "The filter expression does not parse: " + e.getMessage(), "filter"));
    }
}
