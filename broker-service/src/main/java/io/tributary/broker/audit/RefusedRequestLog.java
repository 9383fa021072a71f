package io.tributary.broker.audit;

import java.util.EnumMap;
import java.util.Map;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line for a request the broker refused for a reason its operator should see: an API or
 * version it does not serve, a request it cannot parse, a config change it refused, an authorization
 * denial. Each line names the API and version, the client id, the principal, the client's address
 * and the reason; a malformed request is logged at WARN, the others at INFO. At most one line per
 * kind per interval ({@code broker.refused-request-log-interval-ms}): a client retrying in a loop
 * cannot flood the log, and the next line says how many were left out. (Kafka's authorizer also
 * writes every denial to {@code kafka.authorizer.logger}, which is at WARN unless turned up.)
 *
 * <p>Thread-safe; never blocks on anything but its own short lock.
 */
public final class RefusedRequestLog {

    /** Why a request was refused; each kind is rate-limited on its own. */
    public enum Kind {
        /** An API or version this broker does not serve. */
        UNSUPPORTED,
        /** A request that could not be parsed. */
        MALFORMED,
        /** A config change (or a topic's configs) refused: INVALID_CONFIG, INVALID_REQUEST, POLICY_VIOLATION. */
        CONFIG,
        /** An operation the authorizer denied. */
        AUTHORIZATION
    }

    private static final Logger log = LoggerFactory.getLogger(RefusedRequestLog.class);

    private final long intervalMs;
    private final Time time;
    private final Map<Kind, long[]> lastLoggedAndSuppressed = new EnumMap<>(Kind.class);

    /**
     * @param intervalMs at least this long between two lines of the same kind, ms (0: every refusal)
     */
    public RefusedRequestLog(long intervalMs, Time time) {
        this.intervalMs = intervalMs;
        this.time = time;
    }

    /** At least this long between two lines of one kind, ms. */
    public long intervalMs() {
        return intervalMs;
    }

    /**
     * Logs a refusal unless one of the same kind was logged less than the interval ago.
     *
     * @return whether a line was written
     */
    public boolean refused(Kind kind, AuthorizableRequestContext context, String reason) {
        long now = time.milliseconds();
        long suppressed;
        synchronized (lastLoggedAndSuppressed) {
            long[] state = lastLoggedAndSuppressed.computeIfAbsent(kind, k -> new long[] {Long.MIN_VALUE, 0});
            if (state[0] != Long.MIN_VALUE && now - state[0] < intervalMs) {
                state[1]++;
                return false;
            }
            suppressed = state[1];
            state[0] = now;
            state[1] = 0;
        }
        String more = suppressed == 0 ? "" : " (" + suppressed + " more refusal(s) of this kind not logged in the last "
            + intervalMs + " ms)";
        String principal = context.principal() == null ? "-" : context.principal().toString();
        String api = ApiKeys.hasId(context.requestType()) ? ApiKeys.forId(context.requestType()).name()
            : "API " + context.requestType();
        String from = context.clientAddress() == null ? "-" : context.clientAddress().getHostAddress();
        if (kind == Kind.MALFORMED) {
            log.warn("Refused {} v{} from client '{}' ({} at {}): {}{}", api, context.requestVersion(),
                context.clientId(), principal, from, reason, more);
        } else {
            log.info("Refused {} v{} from client '{}' ({} at {}): {}{}", api, context.requestVersion(),
                context.clientId(), principal, from, reason, more);
        }
        return true;
    }
}
