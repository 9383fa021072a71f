package io.tributary.adminui.messages;

import io.tributary.adminui.messages.MessageViews.HeaderInput;
import io.tributary.adminui.messages.MessageViews.Message;
import io.tributary.adminui.messages.MessageViews.MessagePage;
import io.tributary.adminui.messages.MessageViews.MessageSettings;
import io.tributary.adminui.messages.MessageViews.MultiMessagePage;
import io.tributary.adminui.messages.MessageViews.PartitionRange;
import io.tributary.adminui.messages.MessageViews.ProduceRequest;
import io.tributary.adminui.messages.MessageViews.Produced;
import io.tributary.adminui.messages.MessageViews.ProxyOffsets;
import io.tributary.adminui.messages.MessageViews.ProxyRecord;
import io.tributary.adminui.messages.MessageViews.ProxySearchRequest;
import io.tributary.adminui.messages.MessageViews.ProxySearchResults;
import io.tributary.adminui.messages.MessageViews.ProxySearchStatus;
import io.tributary.adminui.messages.MessageViews.SearchRequest;
import io.tributary.adminui.messages.MessageViews.SearchView;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.security.Rights;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /api/topics/{name}/messages}: pages of one partition's records (decoded for display),
 * producing a record (when {@code admin-ui.produce-enabled}), and bounded server-side searches.
 * The live tail is {@link MessageStreamController}.
 */
@RestController
@RequestMapping("/api")
public class MessagesController {

    /** Largest page served. */
    static final int MAX_COUNT = 100;
    /** Records one search scans at most. */
    static final long SEARCH_MAX_RECORDS = 1_000_000L;
    /** How long one search may run, ms. */
    static final long SEARCH_TIME_BUDGET_MS = 30_000L;
    /** Matches one search keeps, and the most a poll returns. */
    static final int SEARCH_MAX_MATCHES = 100;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final RestProxyClient proxy;
    private final MessagesProxyClient records;
    private final boolean produceEnabled;
    private final Rights rights;

    /**
     * @param produceEnabled {@code admin-ui.produce-enabled}: whether the UI may produce records
     * @param rights         refuses producing to a topic the signed-in user may not write
     */
    public MessagesController(RestProxyClient proxy, MessagesProxyClient records,
            @Value("${admin-ui.produce-enabled:true}") boolean produceEnabled, Rights rights) {
        this.proxy = proxy;
        this.records = records;
        this.produceEnabled = produceEnabled;
        this.rights = rights;
    }

    /** What the message page may offer. */
    @GetMapping("/messages/settings")
    public MessageSettings settings() {
        return new MessageSettings(produceEnabled);
    }

    /**
     * A page of up to {@code count} (1..100) records of partition {@code partition}, oldest first,
     * starting {@code from} {@code oldest}, {@code newest} (the last page), {@code offset} (clamped to
     * the partition's records) or {@code timestamp} (the first record at or after it, ms). With
     * {@code committed}, only committed transactions' records (read_committed; markers are never shown).
     */
    @GetMapping(path = "/topics/{name}/messages", params = "!partitions")
    public MessagePage page(@PathVariable String name, @RequestParam(defaultValue = "0") int partition,
            @RequestParam(defaultValue = "oldest") String from, @RequestParam(required = false) Long offset,
            @RequestParam(required = false) Long timestamp, @RequestParam(defaultValue = "50") int count,
            @RequestParam(defaultValue = "false") boolean committed) {
        if (count < 1 || count > MAX_COUNT) {
            throw bad("count must be between 1 and " + MAX_COUNT);
        }
        if (partition < 0) {
            throw bad("partition must be 0 or more");
        }
        ProxyOffsets offsets = records.offsets(name, partition);
        long begin = offsets.beginningOffset();
        long end = offsets.endOffset();
        List<ProxyRecord> read;
        switch (from.toLowerCase(Locale.ROOT)) {
            case "oldest" -> read = readFrom(name, partition, begin, end, count, committed);
            case "newest" -> read = readFrom(name, partition, Math.max(begin, end - count), end, count, committed);
            case "offset" -> {
                if (offset == null) {
                    throw bad("from=offset needs offset");
                }
                read = readFrom(name, partition, Math.min(Math.max(offset, begin), end), end, count, committed);
            }
            case "timestamp" -> {
                if (timestamp == null || timestamp < 0) {
                    throw bad("from=timestamp needs timestamp, ms since the epoch");
                }
                read = begin >= end ? List.of() : records.read(name, partition, null, timestamp, count, committed);
            }
            default -> throw bad("from must be oldest, newest, offset or timestamp");
        }
        List<Message> messages = read.stream().sorted(Comparator.comparingLong(ProxyRecord::offset))
            .map(PayloadDecoder::message).toList();
        Long previous = null;
        Long next = null;
        if (!messages.isEmpty()) {
            long first = messages.get(0).offset();
            long last = messages.get(messages.size() - 1).offset();
            previous = first > begin ? Math.max(begin, first - count) : null;
            next = last + 1 < end ? last + 1 : null;
        } else if (end > begin) {
            previous = Math.max(begin, end - count);
        }
        return new MessagePage(name, partition, begin, end, count, messages, previous, next);
    }

    /**
     * A page of up to {@code count} records of several partitions ({@code partitions}: ids
     * comma-separated, or {@code all}; at most 32), in timestamp order, from {@code oldest},
     * {@code newest}, {@code offset} (the same in each), {@code timestamp}, or a cursor of the page
     * before ({@code from=after&cursor=...}, {@code from=before&cursor=...}); {@code committed} as for
     * one partition.
     */
    @GetMapping(path = "/topics/{name}/messages", params = "partitions")
    public MultiMessagePage multiPage(@PathVariable String name, @RequestParam String partitions,
            @RequestParam(defaultValue = "oldest") String from, @RequestParam(required = false) Long offset,
            @RequestParam(required = false) Long timestamp, @RequestParam(required = false) String cursor,
            @RequestParam(defaultValue = "50") int count, @RequestParam(defaultValue = "false") boolean committed) {
        if (count < 1 || count > MAX_COUNT) {
            throw bad("count must be between 1 and " + MAX_COUNT);
        }
        String mode = from.toLowerCase(Locale.ROOT);
        if ("offset".equals(mode) && offset == null) {
            throw bad("from=offset needs offset");
        }
        if ("timestamp".equals(mode) && (timestamp == null || timestamp < 0)) {
            throw bad("from=timestamp needs timestamp, ms since the epoch");
        }
        List<Integer> ids = partitionIds(proxy, name, partitions);
        MultiPartitionPages.Page page;
        try {
            page = new MultiPartitionPages(records, committed).page(name, ids, mode, offset, timestamp, cursor, count);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        return new MultiMessagePage(name, page.offsets().entrySet().stream().map(e -> new PartitionRange(e.getKey(),
            e.getValue().beginningOffset(), e.getValue().endOffset())).toList(), count, page.messages(),
            page.previousCursor(), page.nextCursor());
    }

    /** {@code all} (the topic's partitions) or ids separated by commas; 1 to 32 of them, else a 400. */
    static List<Integer> partitionIds(RestProxyClient proxy, String topic, String partitions) {
        List<Integer> ids;
        if ("all".equalsIgnoreCase(partitions.strip())) {
            ids = proxy.partitionStates(topic).stream().map(s -> s.partition()).sorted().toList();
        } else {
            try {
                ids = java.util.Arrays.stream(partitions.split(",")).map(String::strip).map(Integer::valueOf)
                    .distinct().sorted().toList();
            } catch (NumberFormatException e) {
                throw bad("partitions must be all or partition ids separated by commas");
            }
        }
        if (ids.isEmpty() || ids.size() > MultiPartitionPages.MAX_PARTITIONS || ids.get(0) < 0) {
            throw bad("Pick 1 to " + MultiPartitionPages.MAX_PARTITIONS + " partitions");
        }
        return ids;
    }

    private List<ProxyRecord> readFrom(String topic, int partition, long start, long end, int count,
            boolean committed) {
        if (start >= end) {
            return List.of();
        }
        return records.read(topic, partition, start, null, (int) Math.min(count, end - start), committed);
    }

    /**
     * Produces one record: 201 with its partition and offset; 403 when producing is turned off or the
     * signed-in user may not WRITE the topic.
     */
    @PostMapping("/topics/{name}/messages")
    public ResponseEntity<Produced> produce(@PathVariable String name, @RequestBody ProduceRequest request) {
        if (!produceEnabled) {
            throw new ResponseStatusException(HttpStatus.FORBIDDEN,
                "Producing from the admin UI is turned off (admin-ui.produce-enabled=false)");
        }
        rights.requireTopic(name, "WRITE", "produce to");
        ObjectNode record = JSON.createObjectNode();
        if (request.partition() != null) {
            record.put("partition_id", request.partition());
        }
        if (request.key() != null && !request.key().isEmpty()) {
            record.putObject("key").put("type", "STRING").put("data", request.key());
        }
        record.putObject("value").put("type", "STRING").put("data", request.value() == null ? "" : request.value());
        ArrayNode headers = record.putArray("headers");
        for (HeaderInput header : request.headers() == null ? List.<HeaderInput>of() : request.headers()) {
            if (header.name() == null || header.name().isBlank()) {
                throw bad("Every header needs a name");
            }
            ObjectNode h = headers.addObject().put("name", header.name().strip());
            if (header.value() == null) {
                h.putNull("value");
            } else {
                h.put("value", Base64.getEncoder().encodeToString(header.value().getBytes(StandardCharsets.UTF_8)));
            }
        }
        JsonNode answer = records.produce(proxy.cluster().clusterId(), name, record);
        return ResponseEntity.status(HttpStatus.CREATED)
            .body(new Produced(answer.path("partition_id").asInt(), answer.path("offset").asLong()));
    }

    /** Starts a bounded search of the topic's keys and/or values for a substring; 202 with its progress. */
    @PostMapping("/topics/{name}/messages/searches")
    public ResponseEntity<SearchView> startSearch(@PathVariable String name, @RequestBody SearchRequest request) {
        if (request.query() == null || request.query().isEmpty()) {
            throw bad("A search needs some text to find");
        }
        String in = request.in() == null || request.in().isBlank() ? "both" : request.in().toLowerCase(Locale.ROOT);
        if (!List.of("key", "value", "both").contains(in)) {
            throw bad("in must be key, value or both");
        }
        ProxySearchStatus status = records.startSearch(proxy.cluster().clusterId(), name, new ProxySearchRequest(
            request.query(), in, SEARCH_MAX_RECORDS, SEARCH_TIME_BUDGET_MS, SEARCH_MAX_MATCHES));
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(view(status, List.of()));
    }

    /** A search's progress ("scanned N of M") and its matches so far (the first 100). */
    @GetMapping("/topics/{name}/messages/searches/{id}")
    public SearchView search(@PathVariable String name, @PathVariable String id) {
        String clusterId = proxy.cluster().clusterId();
        ProxySearchStatus status = records.search(clusterId, name, id);
        List<Message> matches = List.of();
        if (status.matched() > 0) {
            ProxySearchResults results = records.searchResults(clusterId, name, id, SEARCH_MAX_MATCHES);
            matches = results.data() == null ? List.of()
                : results.data().stream().map(PayloadDecoder::message).toList();
        }
        return view(status, matches);
    }

    /** Cancels a search: 204. */
    @DeleteMapping("/topics/{name}/messages/searches/{id}")
    public ResponseEntity<Void> cancelSearch(@PathVariable String name, @PathVariable String id) {
        records.cancelSearch(proxy.cluster().clusterId(), name, id);
        return ResponseEntity.noContent().build();
    }

    static SearchView view(ProxySearchStatus s, List<Message> matches) {
        return new SearchView(s.searchId(), s.query(), s.state(), "RUNNING".equals(s.state()), s.scanned(), s.total(),
            s.matched(), s.elapsedMs(), s.error(), matches);
    }

    static ResponseStatusException bad(String message) {
        return new ResponseStatusException(HttpStatus.BAD_REQUEST, message);
    }
}
