package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;

/** An {@link ApiHandler} of a chosen api and versions that records its requests and answers as told. */
final class FakeApiHandler implements ApiHandler {

    private final ApiKeys apiKey;
    private final short minVersion;
    private final short maxVersion;
    private short advertisedMinVersion;
    final List<AbstractRequest> requests = new ArrayList<>();
    BiFunction<RequestContext, AbstractRequest, CompletableFuture<Response>> answer;

    FakeApiHandler(ApiKeys apiKey, int minVersion, int maxVersion,
                   BiFunction<RequestContext, AbstractRequest, CompletableFuture<Response>> answer) {
        this.apiKey = apiKey;
        this.minVersion = (short) minVersion;
        this.maxVersion = (short) maxVersion;
        this.advertisedMinVersion = (short) minVersion;
        this.answer = answer;
    }

    FakeApiHandler advertisingFrom(int version) {
        advertisedMinVersion = (short) version;
        return this;
    }

    @Override
    public ApiKeys apiKey() {
        return apiKey;
    }

    @Override
    public short minVersion() {
        return minVersion;
    }

    @Override
    public short maxVersion() {
        return maxVersion;
    }

    @Override
    public short advertisedMinVersion() {
        return advertisedMinVersion;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest request) {
        requests.add(request);
        return answer.apply(context, request);
    }
}
