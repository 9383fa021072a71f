package io.tributary.broker.fetchsession;

import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;

/**
 * One partition of an incremental fetch session (KIP-227): the request parameters the fetcher
 * last sent for it, which later requests may leave out, and the high watermark and log start
 * offset last sent back, so that a response can leave the partition out while nothing changed.
 *
 * <p>{@code fetcherLogStartOffset} is the log start offset the fetcher (a follower) reported;
 * {@code localLogStartOffset} is the partition's own on this broker. Not thread-safe: guarded by
 * the lock of its {@link FetchSession}.
 */
final class CachedPartition {

    /** The topic's name, or null while the id the fetcher named is unknown here. */
    private String topic;
    private final Uuid topicId;
    private final int partition;
    private int maxBytes;
    private long fetchOffset;
    private long highWatermark = -1;
    private long localLogStartOffset = -1;
    private long fetcherLogStartOffset;
    private Optional<Integer> currentLeaderEpoch;
    private Optional<Integer> lastFetchedEpoch;

    CachedPartition(String topic, Uuid topicId, int partition, FetchRequest.PartitionData request) {
        this.topic = topic;
        this.topicId = topicId;
        this.partition = partition;
        updateRequestParams(request);
    }

    String topic() {
        return topic;
    }

    Uuid topicId() {
        return topicId;
    }

    int partition() {
        return partition;
    }

    /** What the fetcher asks for this partition, as if it had sent it again. */
    FetchRequest.PartitionData requestData() {
        return new FetchRequest.PartitionData(topicId, fetchOffset, fetcherLogStartOffset, maxBytes, currentLeaderEpoch,
            lastFetchedEpoch);
    }

    /** Takes the parameters of a request that names this partition. */
    void updateRequestParams(FetchRequest.PartitionData request) {
        maxBytes = request.maxBytes;
        fetchOffset = request.fetchOffset;
        fetcherLogStartOffset = request.logStartOffset;
        currentLeaderEpoch = request.currentLeaderEpoch;
        lastFetchedEpoch = request.lastFetchedEpoch;
    }

    /** Names the topic by what its id names now: null once the id is unknown (the topic was deleted). */
    void name(String name) {
        topic = name;
    }

    /**
     * Whether an incremental response must carry this partition: it has records, an error, a
     * diverging epoch or a preferred read replica, or its high watermark or log start offset
     * changed since last sent. An error resets the cached high watermark to -1, so the partition
     * is sent again once the error is gone.
     *
     * @param remember whether to remember what is sent (false when only sizing a response)
     */
    boolean mustRespond(FetchResponseData.PartitionData response, boolean remember) {
        boolean mustRespond = FetchResponse.recordsSize(response) > 0
            || FetchResponse.isPreferredReplica(response)
            || FetchResponse.isDivergingEpoch(response);
        if (highWatermark != response.highWatermark()) {
            mustRespond = true;
            if (remember) {
                highWatermark = response.highWatermark();
            }
        }
        if (localLogStartOffset != response.logStartOffset()) {
            mustRespond = true;
            if (remember) {
                localLogStartOffset = response.logStartOffset();
            }
        }
        if (response.errorCode() != Errors.NONE.code()) {
            mustRespond = true;
            if (remember) {
                highWatermark = -1;
            }
        }
        return mustRespond;
    }

    /** Remembers what a full response sent, as the session starts from it. */
    void rememberSent(FetchResponseData.PartitionData response) {
        highWatermark = response.errorCode() == Errors.NONE.code() ? response.highWatermark() : -1;
        localLogStartOffset = response.logStartOffset();
    }
}
