package io.tributary.broker.testing;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;

/**
 * A blocking Kafka protocol client over one socket, for protocol-level tests: requests are
 * built with the kafka-clients message classes, or written as raw bytes (malformed input).
 */
public final class WireClient implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final AtomicInteger correlation = new AtomicInteger(1);
    private String clientId = "wire-client";

    public WireClient(String host, int port) throws IOException {
        this(host, port, null);
    }

    /** Connects from {@code localAddress} (for example 127.0.0.2, another loopback address), or any when null. */
    public WireClient(String host, int port, java.net.InetAddress localAddress) throws IOException {
        socket = new Socket();
        if (localAddress != null) {
            socket.bind(new InetSocketAddress(localAddress, 0));
        }
        socket.connect(new InetSocketAddress(host, port), 10_000);
        socket.setSoTimeout(30_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Connects to {@code host:port}. */
    public static WireClient connect(String bootstrap) throws IOException {
        int colon = bootstrap.lastIndexOf(':');
        return new WireClient(bootstrap.substring(0, colon), Integer.parseInt(bootstrap.substring(colon + 1)));
    }

    /** Sets the client id of the request headers sent from now on ({@code wire-client} by default); returns this client. */
    public WireClient clientId(String clientId) {
        this.clientId = clientId;
        return this;
    }

    /** Sends a request and reads its response. */
    @SuppressWarnings("unchecked")
    public <T extends AbstractResponse> T send(AbstractRequest request) throws IOException {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), clientId,
            correlation.getAndIncrement());
        ByteBuffer buffer = request.serializeWithHeader(header);
        writeFrame(buffer);
        ByteBuffer response = readFrame();
        ResponseHeader.parse(response, request.apiKey().responseHeaderVersion(request.version()));
        return (T) AbstractResponse.parseResponse(request.apiKey(), new org.apache.kafka.common.protocol.ByteBufferAccessor(response),
            request.version());
    }

    /** Reads the response to {@code request}, sent before with {@link #sendOnly}. */
    @SuppressWarnings("unchecked")
    public <T extends AbstractResponse> T receive(AbstractRequest request) throws IOException {
        ByteBuffer response = readFrame();
        ResponseHeader.parse(response, request.apiKey().responseHeaderVersion(request.version()));
        return (T) AbstractResponse.parseResponse(request.apiKey(), new org.apache.kafka.common.protocol.ByteBufferAccessor(response),
            request.version());
    }

    /** Whether bytes of a response have arrived and not been read yet (does not block). */
    public boolean hasUnreadBytes() throws IOException {
        return in.available() > 0;
    }

    /** Sends a request that expects no response (acks=0). */
    public void sendOnly(AbstractRequest request) throws IOException {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), clientId,
            correlation.getAndIncrement());
        writeFrame(request.serializeWithHeader(header));
    }

    /** Writes a size-prefixed frame. */
    public void writeFrame(ByteBuffer body) throws IOException {
        byte[] bytes = new byte[4 + body.remaining()];
        ByteBuffer.wrap(bytes).putInt(body.remaining()).put(body.duplicate());
        out.write(bytes);
        out.flush();
    }

    /** Writes raw bytes, frame or not. */
    public void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads one size-prefixed frame. */
    public ByteBuffer readFrame() throws IOException {
        int size = in.readInt();
        byte[] body = new byte[size];
        in.readFully(body);
        return ByteBuffer.wrap(body);
    }

    /** Whether the broker closed the connection (a read returns end of stream) within the socket timeout. */
    public boolean isClosedByBroker() {
        try {
            return in.read() == -1;
        } catch (IOException e) {
            return true;
        }
    }

    public void setReadTimeoutMs(int ms) throws IOException {
        socket.setSoTimeout(ms);
    }

    /** Header version of a request to {@code key} at {@code version}. */
    public static short headerVersion(ApiKeys key, short version) {
        return key.requestHeaderVersion(version);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
