package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaManager;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;

/**
 * The controller mutation quota (KIP-599, {@code controller_mutation_rate}) of one CreateTopics,
 * CreatePartitions or DeleteTopics request: strict from the version Kafka makes it strict (a topic
 * is refused THROTTLING_QUOTA_EXCEEDED while the client's bucket is empty), permissive before it
 * (accepted, only throttled); the response carries the longest throttle time and mutes the
 * connection for it. Not thread-safe: one request's.
 */
final class MutationQuotaCheck {

    private final ClientQuotaManager quota;
    private final String user;
    private final String clientId;
    private final boolean strict;
    private int throttleMs;
    private long recordedAtMs;

    /** @param strictSinceVersion the first version of the request's API whose clients expect refusals */
    MutationQuotaCheck(ClientQuotaManager quota, RequestContext context, int strictSinceVersion) {
        this.quota = quota;
        this.user = context.principal().getName();
        this.clientId = context.clientId();
        this.strict = context.apiVersion() >= strictSinceVersion;
    }

    /** Whether a mutation quota applies to the client at all (nothing needs counting otherwise). */
    boolean applies() {
        return quota.quota(user, clientId).isPresent();
    }

    /** Counts {@code partitions} mutations; the refusal when the quota does not allow them now, else null. */
    ApiError record(int partitions) {
        ClientQuotaManager.Mutations outcome = quota.recordMutations(user, clientId, partitions, strict);
        if (outcome.throttleMs() > 0) {
            throttleMs = Math.max(throttleMs(), outcome.throttleMs());
            recordedAtMs = quota.time().milliseconds();
        }
        return outcome.accepted() ? null
            : new ApiError(Errors.THROTTLING_QUOTA_EXCEEDED, Errors.THROTTLING_QUOTA_EXCEEDED.message());
    }

    /**
     * The longest throttle time recorded, less the time since (the answer may go out long after,
     * once the new topics have leaders), ms, as Kafka's {@code AbstractControllerMutationQuota}.
     */
    int throttleMs() {
        return throttleMs == 0 ? 0 : (int) Math.max(0, throttleMs - (quota.time().milliseconds() - recordedAtMs));
    }

    /** {@code response}, muting the connection for the throttle time when there is one. */
    Response respond(Response response) {
        int remaining = throttleMs();
        return remaining > 0 ? new Response.Throttled(response, remaining) : response;
    }
}
