package io.tributary.broker.api;

import io.tributary.broker.audit.RefusedRequestLog;
import io.tributary.broker.network.RequestContext;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;

/** Which answers of the config APIs are refusals an operator should see in the log ({@link RefusedRequestLog}). */
final class ConfigRefusals {

    private ConfigRefusals() {
    }

    /** Logs {@code error} for the resource when it refuses the change as invalid (not for NONE or authorization). */
    static void log(RefusedRequestLog refusals, RequestContext context, byte resourceType, String resourceName,
                    ApiError error) {
        Errors code = error.error();
        if (code == Errors.INVALID_CONFIG || code == Errors.INVALID_REQUEST || code == Errors.POLICY_VIOLATION) {
            refusals.refused(RefusedRequestLog.Kind.CONFIG, context, "refused the change of "
                + new ConfigResource(ConfigResource.Type.forId(resourceType), resourceName) + " with " + code.name()
                + ": " + error.message());
        }
    }
}
