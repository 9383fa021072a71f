package io.tributary.broker.share;

import java.util.List;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.protocol.Errors;

/**
 * What a share session says about one ShareFetch or ShareAcknowledge.
 *
 * @param error      NONE, or the session error the whole request is answered with
 *                   (SHARE_SESSION_NOT_FOUND, INVALID_SHARE_SESSION_EPOCH, SHARE_SESSION_LIMIT_REACHED,
 *                   INVALID_REQUEST)
 * @param partitions the partitions to fetch: every partition of the session after this request's
 *                   additions and removals (none for a final request or an acknowledgement)
 * @param isFinal    whether the request closed the session (epoch -1): the member's records are to be released
 */
public record ShareSessionContext(Errors error, List<TopicIdPartition> partitions, boolean isFinal) {

    public ShareSessionContext {
        partitions = List.copyOf(partitions);
    }

    static ShareSessionContext error(Errors error) {
        return new ShareSessionContext(error, List.of(), false);
    }
}
