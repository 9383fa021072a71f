package io.tributary.adminui.messages;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** The bodies of {@code /api/topics/{name}/messages} and the REST proxy bodies behind them. */
public final class MessageViews {

    private MessageViews() {
    }

    /**
     * A key, value or header value for display.
     *
     * @param kind  {@code null} (absent), {@code json} (pretty-printed), {@code text} (valid UTF-8) or
     *              {@code binary} (hex, two digits a byte, space-separated)
     * @param text  the display form; null when the kind is {@code null}
     * @param bytes the size in bytes
     */
    public record Payload(String kind, String text, int bytes) {
    }

    /** A header with its decoded value. */
    public record HeaderView(String name, Payload value) {
    }

    /** A record for display. */
    public record Message(int partition, long offset, long timestamp, Payload key, Payload value,
            List<HeaderView> headers) {
    }

    /**
     * One page of a partition's records, oldest first.
     *
     * @param beginningOffset the partition's first offset
     * @param endOffset       the partition's next offset (records live in [beginning, end))
     * @param previousOffset  where the page before starts; null on the first page
     * @param nextOffset      where the page after starts; null when this page reaches the end
     */
    public record MessagePage(String topic, int partition, long beginningOffset, long endOffset, int count,
            List<Message> messages, Long previousOffset, Long nextOffset) {
    }

    /** A partition's records, [beginning, end). */
    public record PartitionRange(int partition, long beginningOffset, long endOffset) {
    }

    /**
     * One page over several partitions, in timestamp order; the cursors name a position in each
     * partition ({@code "0:5,1:7"}) to page backward ({@code from=before}) or forward ({@code from=after}) from.
     */
    public record MultiMessagePage(String topic, List<PartitionRange> partitions, int count, List<Message> messages,
            String previousCursor, String nextCursor) {
    }

    /**
     * Records of several partitions that passed a filter, in timestamp order, with what the bounded
     * scan did: {@code scanned} records tested, {@code matched} of them shown, and what stopped it
     * ({@code matches}: a page is full, {@code end}: nothing more to read that way, {@code records}:
     * {@code maxRecords} tested, {@code time}: {@code timeBudgetMs} spent). The cursors scan on
     * backward ({@code from=before}) or forward ({@code from=after}) from where the scan stopped.
     */
    public record FilteredPage(String topic, List<PartitionRange> partitions, int count, List<Message> messages,
            String previousCursor, String nextCursor, long scanned, int matched, String stoppedBy, long elapsedMs,
            long maxRecords, long timeBudgetMs) {
    }

    /** An error of one request field, as {@code io.tributary.adminui.error.ApiError} plus the field's name. */
    public record FieldError(int status, Integer errorCode, String message, String field) {
    }

    /** The messages a page shows, to export as a file. */
    public record ExportRequest(List<Message> messages) {
    }

    /** A header to produce; its value is sent as UTF-8. */
    public record HeaderInput(String name, String value) {
    }

    /** A record to produce: key and value as text (UTF-8); partition null lets the producer choose. */
    public record ProduceRequest(String key, String value, List<HeaderInput> headers, Integer partition) {
    }

    /** Where a produced record went. */
    public record Produced(int partition, long offset) {
    }

    /** What the page needs to know of the message settings. */
    public record MessageSettings(boolean produceEnabled) {
    }

    /**
     * A search's progress and, when asked, its first matches.
     *
     * @param running true until the search stopped (done, cancelled, or a bound reached)
     */
    public record SearchView(String id, String query, String state, boolean running, long scanned, long total,
            int matched, long elapsedMs, String error, List<Message> messages) {
    }

    /** A search to start: {@code in} is key, value or both (default). */
    public record SearchRequest(String query, String in) {
    }

    // --- REST proxy bodies ---

    /** The proxy's record in binary format: key, value and header values base64, null when absent. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyRecord(String topic, String key, String value, int partition, long offset, long timestamp,
            List<ProxyHeader> headers) {
    }

    /** A header of a {@link ProxyRecord}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyHeader(String name, String value) {
    }

    /** {@code GET /topics/{t}/partitions/{p}/offsets}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyOffsets(@JsonProperty("beginning_offset") long beginningOffset,
            @JsonProperty("end_offset") long endOffset) {
    }

    /** The v3 search start body. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ProxySearchRequest(String query, String in, @JsonProperty("max_records") Long maxRecords,
            @JsonProperty("time_budget_ms") Long timeBudgetMs, @JsonProperty("max_matches") Integer maxMatches) {
    }

    /** A v3 search's status. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxySearchStatus(@JsonProperty("search_id") String searchId, String query, String state,
            long scanned, long total, int matched, @JsonProperty("elapsed_ms") long elapsedMs, String error) {
    }

    /** A page of a v3 search's matches. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxySearchResults(String state, List<ProxyRecord> data,
            @JsonProperty("next_cursor") Integer nextCursor) {
    }
}
