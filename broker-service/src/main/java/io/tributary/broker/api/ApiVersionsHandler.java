package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.FinalizedFeatures;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.message.ApiVersionsResponseData.FinalizedFeatureKey;
import org.apache.kafka.common.message.ApiVersionsResponseData.FinalizedFeatureKeyCollection;
import org.apache.kafka.common.message.ApiVersionsResponseData.SupportedFeatureKey;
import org.apache.kafka.common.message.ApiVersionsResponseData.SupportedFeatureKeyCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.ResponseHeader;

/**
 * ApiVersions (v0-5): the apis and version ranges this broker serves, from the handlers' own
 * declarations. A version beyond 5 is answered in the v0 layout with UNSUPPORTED_VERSION and
 * the supported ranges, so the client retries at our maximum (KIP-511). v3+ requests with an
 * invalid client software name or version get INVALID_REQUEST; v5 requests naming another
 * cluster or node get REBOOTSTRAP_REQUIRED (KIP-1242). Throttle time is always 0.
 *
 * <p>v3+ answers carry the feature levels this broker supports and the cluster's finalized levels
 * with their epoch (KIP-584), which {@code kafka-features describe} prints and kafka-clients
 * producers read to choose a transaction version. As Kafka (KAFKA-17492), v3 answers leave out the
 * supported features whose minimum level is 0, which older clients cannot parse; finalized
 * levels of 0 are never sent.
 */
public final class ApiVersionsHandler extends VersionedHandler {

    private final List<ApiHandler> handlers;
    private final Supplier<String> clusterId;
    private final int brokerId;
    private final BrokerFeatures supportedFeatures;
    private final Supplier<FinalizedFeatures> finalizedFeatures;

    /** A handler advertising no features, for tests of the api list. */
    public ApiVersionsHandler(Collection<ApiHandler> otherHandlers, Supplier<String> clusterId, int brokerId) {
        this(otherHandlers, clusterId, brokerId, new BrokerFeatures(java.util.Map.of()), () -> FinalizedFeatures.NONE);
    }

    /**
     * @param otherHandlers     every other handler of the broker
     * @param clusterId         the cluster id, once known
     * @param brokerId          this broker's id
     * @param supportedFeatures the feature levels this broker supports
     * @param finalizedFeatures the cluster's finalized levels, as now known
     */
    public ApiVersionsHandler(Collection<ApiHandler> otherHandlers, Supplier<String> clusterId, int brokerId,
                              BrokerFeatures supportedFeatures, Supplier<FinalizedFeatures> finalizedFeatures) {
        super(ApiKeys.API_VERSIONS, 0, 5);
        this.handlers = new ArrayList<>(otherHandlers);
        this.handlers.add(this);
        this.clusterId = clusterId;
        this.brokerId = brokerId;
        this.supportedFeatures = supportedFeatures;
        this.finalizedFeatures = finalizedFeatures;
    }

    /** Every handler of the broker, this one included. */
    public List<ApiHandler> allHandlers() {
        return List.copyOf(handlers);
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest request) {
        ApiVersionsRequest apiVersions = (ApiVersionsRequest) request;
        if (context.apiVersion() >= 3 && !apiVersions.isValid()) {
            return Responses.completed(context, apiVersions.getErrorResponse(0,
                Errors.INVALID_REQUEST.exception("Invalid client software name or version")));
        }
        ApiVersionsResponseData data = responseData(handlers);
        if (context.apiVersion() >= 3) {
            addFeatures(data, context.apiVersion() < 4);
        }
        if (context.apiVersion() >= 5) {
            String requestedCluster = apiVersions.data().clusterId();
            int requestedNode = apiVersions.data().nodeId();
            if ((requestedCluster != null && !requestedCluster.equals(clusterId.get()))
                    || (requestedNode >= 0 && requestedNode != brokerId)) {
                data.setErrorCode(Errors.REBOOTSTRAP_REQUIRED.code());
            }
        }
        return Responses.completed(context, new ApiVersionsResponse(data));
    }

    private void addFeatures(ApiVersionsResponseData data, boolean omitMinLevelZero) {
        SupportedFeatureKeyCollection supported = new SupportedFeatureKeyCollection();
        supportedFeatures.supported().forEach((name, range) -> {
            if (!(omitMinLevelZero && range.min() == 0)) {
                supported.add(new SupportedFeatureKey().setName(name).setMinVersion(range.min())
                    .setMaxVersion(range.max()));
            }
        });
        FinalizedFeatures finalized = finalizedFeatures.get();
        FinalizedFeatureKeyCollection levels = new FinalizedFeatureKeyCollection();
        finalized.levels().forEach((name, level) ->
            levels.add(new FinalizedFeatureKey().setName(name).setMinVersionLevel(level).setMaxVersionLevel(level)));
        data.setSupportedFeatures(supported).setFinalizedFeatures(levels).setFinalizedFeaturesEpoch(finalized.epoch());
    }

    static ApiVersionsResponseData responseData(Collection<ApiHandler> handlers) {
        ApiVersionCollection keys = new ApiVersionCollection();
        handlers.stream().sorted((a, b) -> Short.compare(a.apiKey().id, b.apiKey().id)).forEach(h -> keys.add(
            new ApiVersion().setApiKey(h.apiKey().id).setMinVersion(h.advertisedMinVersion()).setMaxVersion(h.maxVersion())));
        return new ApiVersionsResponseData()
            .setErrorCode(Errors.NONE.code())
            .setApiKeys(keys)
            .setThrottleTimeMs(0)
            .setFinalizedFeaturesEpoch(-1);
    }

    /** The v0-layout answer to an ApiVersions request in a version this broker does not serve. */
    static Response unsupportedVersion(RequestContext context, Collection<ApiHandler> handlers) {
        ApiVersionsResponseData data = responseData(handlers).setErrorCode(Errors.UNSUPPORTED_VERSION.code());
        ApiVersionsResponseData v0 = new ApiVersionsResponseData().setErrorCode(data.errorCode()).setApiKeys(data.apiKeys());
        ResponseHeader header = new ResponseHeader(context.header().correlationId(), (short) 0);
        return Response.send(new ApiVersionsResponse(v0).toSend(header, (short) 0));
    }
}
