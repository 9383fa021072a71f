package io.tributary.broker.api;

import org.apache.kafka.common.protocol.ApiKeys;

/** An {@link ApiHandler} whose api key and served version range are given once, at construction. */
abstract class VersionedHandler implements ApiHandler {

    private final ApiKeys apiKey;
    private final short minVersion;
    private final short maxVersion;

    /**
     * @param apiKey     the api handled
     * @param minVersion oldest version served
     * @param maxVersion newest version served
     */
    VersionedHandler(ApiKeys apiKey, int minVersion, int maxVersion) {
        this.apiKey = apiKey;
        this.minVersion = (short) minVersion;
        this.maxVersion = (short) maxVersion;
    }

    @Override
    public final ApiKeys apiKey() {
        return apiKey;
    }

    @Override
    public final short minVersion() {
        return minVersion;
    }

    @Override
    public final short maxVersion() {
        return maxVersion;
    }
}
