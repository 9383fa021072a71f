package io.tributary.restproxy.search;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.format.EmbeddedFormat;
import io.tributary.restproxy.format.RecordView;
import io.tributary.restproxy.v3.ClusterAdmin;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import tools.jackson.databind.json.JsonMapper;

/**
 * Server-side search of a topic's records: start, watch progress ("scanned N of M"), page through
 * matches by cursor, cancel.
 */
@RestController
@RequestMapping(path = "/v3/clusters/{clusterId}/topics/{topic}/searches", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Search (v3)", description = "Bounded server-side search of a topic's keys and values")
public class SearchController {

    /** Body of a search start; every field but {@code query} is optional. */
    public record SearchRequest(String query, String in, @JsonProperty("case_insensitive") Boolean caseInsensitive,
            @JsonProperty("max_records") Long maxRecords, @JsonProperty("time_budget_ms") Long timeBudgetMs,
            @JsonProperty("max_matches") Integer maxMatches) {
    }

    /** A search's state and progress: {@code scanned} of {@code total} records, {@code matched} found. */
    public record SearchStatus(@JsonProperty("search_id") String searchId, String topic, String query, String state,
            long scanned, long total, int matched, @JsonProperty("elapsed_ms") long elapsedMs, String error,
            String results) {
    }

    /** A page of matches; {@code next_cursor} is null once there can be no more. */
    public record SearchResults(@JsonProperty("search_id") String searchId, String state, List<RecordView> data,
            @JsonProperty("next_cursor") Integer nextCursor) {
    }

    /** Bounds of a search, so one cannot hold the proxy's memory or a search thread for long. */
    static final long MAX_RECORDS = 100_000_000L;
    static final long MAX_TIME_BUDGET_MS = 600_000L;
    static final long MAX_MATCHES = 10_000L;

    private final SearchService searches;
    private final ClusterAdmin admin;
    private final JsonMapper mapper;

    public SearchController(SearchService searches, ClusterAdmin admin, JsonMapper mapper) {
        this.searches = searches;
        this.admin = admin;
        this.mapper = mapper;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Start a search",
        description = "Body {\"query\": substring, \"in\": \"key\"|\"value\"|\"both\" (default), \"case_insensitive\", "
            + "\"max_records\" (records scanned at most, default 1,000,000, at most 100,000,000), \"time_budget_ms\" "
            + "(default 30,000, at most 600,000), \"max_matches\" (default 1,000, at most 10,000)}. Scans every partition up to the log end at the start. Answers 202 "
            + "with the status; poll it, page through results, DELETE to cancel. Errors: 40401, 400, 503.")
    public ResponseEntity<SearchStatus> start(@PathVariable String clusterId, @PathVariable String topic,
            @RequestBody SearchRequest body) {
        admin.checkCluster(clusterId);
        if (body.query() == null || body.query().isEmpty()) {
            throw RestError.BAD_REQUEST.exception("query is required");
        }
        TopicSearch.Field field;
        try {
            field = TopicSearch.Field.valueOf((body.in() == null ? "both" : body.in()).toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw RestError.BAD_REQUEST.exception("in must be key, value or both");
        }
        TopicSearch search = searches.start(new TopicSearch.Request(topic, body.query(), field,
            Boolean.TRUE.equals(body.caseInsensitive()),
            bounded(body.maxRecords(), 1_000_000L, MAX_RECORDS, "max_records"),
            bounded(body.timeBudgetMs(), 30_000L, MAX_TIME_BUDGET_MS, "time_budget_ms"),
            (int) bounded(body.maxMatches() == null ? null : body.maxMatches().longValue(), 1_000L, MAX_MATCHES,
                "max_matches")));
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(status(clusterId, search));
    }

    @GetMapping("/{searchId}")
    @Operation(summary = "A search's state and progress", description = "Errors: 404 unknown search.")
    public SearchStatus status(@PathVariable String clusterId, @PathVariable String topic,
            @PathVariable String searchId) {
        admin.checkCluster(clusterId);
        return status(clusterId, searches.get(topic, searchId));
    }

    @GetMapping("/{searchId}/results")
    @Operation(summary = "A page of matches, from a cursor",
        description = "Matches appear while the search runs; follow next_cursor until it is null. Keys and values "
            + "in `format` json (default) or binary. Errors: 404 unknown search.")
    public SearchResults results(@PathVariable String clusterId, @PathVariable String topic,
            @PathVariable String searchId, @RequestParam(defaultValue = "0") int cursor,
            @RequestParam(defaultValue = "100") int limit, @RequestParam(defaultValue = "json") String format) {
        admin.checkCluster(clusterId);
        TopicSearch search = searches.get(topic, searchId);
        if (cursor < 0 || limit < 1 || limit > 1000) {
            throw RestError.BAD_REQUEST.exception("cursor must be >= 0 and limit 1 to 1000");
        }
        EmbeddedFormat embedded;
        try {
            embedded = EmbeddedFormat.forName(format);
        } catch (RestException e) {
            throw RestError.BAD_REQUEST.exception("format must be json or binary");
        }
        TopicSearch.Progress progress = search.progress(searches.now());
        List<RecordView> page = search.matches(cursor, limit).stream()
            .map(record -> RecordView.of(record, embedded, mapper)).toList();
        int next = cursor + page.size();
        boolean more = progress.state() == TopicSearch.State.RUNNING || next < progress.matched();
        return new SearchResults(search.id(), progress.state().name(), page, more ? next : null);
    }

    @DeleteMapping("/{searchId}")
    @Operation(summary = "Cancel a search", description = "Its matches so far stay readable. Errors: 404.")
    public ResponseEntity<Void> cancel(@PathVariable String clusterId, @PathVariable String topic,
            @PathVariable String searchId) {
        admin.checkCluster(clusterId);
        searches.get(topic, searchId).cancel();
        return ResponseEntity.noContent().build();
    }

    private SearchStatus status(String clusterId, TopicSearch search) {
        TopicSearch.Progress progress = search.progress(searches.now());
        String self = ServletUriComponentsBuilder.fromCurrentContextPath().toUriString() + "/v3/clusters/" + clusterId
            + "/topics/" + search.request().topic() + "/searches/" + search.id();
        return new SearchStatus(search.id(), search.request().topic(), search.request().query(),
            progress.state().name(), progress.scanned(), progress.total(), progress.matched(), progress.elapsedMs(),
            progress.error(), self + "/results");
    }

    /** {@code value}, or {@code fallback} when absent; 400 unless in {@code [1, max]}. */
    private static long bounded(Long value, long fallback, long max, String field) {
        if (value == null) {
            return fallback;
        }
        if (value <= 0 || value > max) {
            throw RestError.BAD_REQUEST.exception(field + " must be between 1 and " + max);
        }
        return value;
    }
}
