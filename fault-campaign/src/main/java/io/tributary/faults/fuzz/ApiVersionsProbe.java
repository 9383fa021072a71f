package io.tributary.faults.fuzz;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.ApiVersionsResponse;

/**
 * Asks a broker for its ApiVersions (v3, on a connection of its own) and returns the APIs it advertises that this
 * kafka-clients version knows, with their version ranges. Stateless; thread-safe.
 */
public final class ApiVersionsProbe {

    private static final short VERSION = 3;

    private ApiVersionsProbe() {
    }

    /**
     * @return api key → {min, max} advertised version
     * @throws IOException when the broker does not answer within 10 s or answers with an error
     */
    public static Map<ApiKeys, short[]> advertised(InetSocketAddress broker) throws IOException {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        short headerVersion = ApiKeys.API_VERSIONS.requestHeaderVersion(VERSION);
        RequestHeaderData header = new RequestHeaderData().setRequestApiKey(ApiKeys.API_VERSIONS.id)
                .setRequestApiVersion(VERSION).setClientId("fuzz-probe").setCorrelationId(7);
        ApiVersionsRequestData body = new ApiVersionsRequestData().setClientSoftwareName("tributary-fuzzer")
                .setClientSoftwareVersion("1");
        int size = header.size(cache, headerVersion) + body.size(cache, VERSION);
        ByteBuffer frame = ByteBuffer.allocate(4 + size).putInt(size);
        ByteBufferAccessor accessor = new ByteBufferAccessor(frame);
        header.write(accessor, cache, headerVersion);
        body.write(accessor, cache, VERSION);
        try (Socket socket = new Socket()) {
            socket.setSoTimeout(10_000);
            socket.connect(broker, 10_000);
            socket.getOutputStream().write(frame.array());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            ByteBuffer buffer = ByteBuffer.wrap(response);
            buffer.getInt(); // correlation id: ApiVersions' response header is always v0
            ApiVersionsResponseData data = ApiVersionsResponse.parse(new ByteBufferAccessor(buffer), VERSION).data();
            if (data.errorCode() != Errors.NONE.code()) {
                throw new IOException("ApiVersions answered " + Errors.forCode(data.errorCode()));
            }
            Map<ApiKeys, short[]> advertised = new EnumMap<>(ApiKeys.class);
            for (ApiVersionsResponseData.ApiVersion v : data.apiKeys()) {
                if (ApiKeys.hasId(v.apiKey())) {
                    advertised.put(ApiKeys.forId(v.apiKey()), new short[] {v.minVersion(), v.maxVersion()});
                }
            }
            return advertised;
        }
    }
}
