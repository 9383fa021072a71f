package io.tributary.faults.harness;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * What each broker itself answers for the cluster (a Metadata request without topics, v12, on a connection of its
 * own), unlike an Admin client, which asks whichever broker it likes: tells which broker's view is stale when clients
 * disagree about the controller. Stateless; thread-safe.
 */
public final class MetadataView {

    private static final short VERSION = 12;
    private static final long POLL_MILLIS = 250;

    private MetadataView() {
    }

    /**
     * @return {@code controller C, brokers [..]} as {@code broker} answers, or why it did not (within 5 s)
     */
    public static String of(BrokerProcess broker) {
        try {
            MetadataResponseData data = ask(broker);
            return "controller " + data.controllerId() + ", brokers " + data.brokers().stream()
                    .map(b -> String.valueOf(b.nodeId())).sorted().collect(Collectors.joining(",", "[", "]"));
        } catch (IOException | RuntimeException e) {
            return "no answer: " + e;
        }
    }

    /** Every broker's answer, by broker id. */
    public static Map<Integer, String> ofAll(FaultCluster cluster) {
        Map<Integer, String> views = new TreeMap<>();
        for (BrokerProcess broker : cluster.brokers()) {
            views.put(broker.id(), of(broker));
        }
        return views;
    }

    /**
     * Waits until every broker answers with the same controller, one of the brokers, and with every broker: after a
     * fault is healed, a broker whose metadata stays stale sends clients to a former controller for good (campaign
     * seed 3002).
     *
     * @throws IllegalStateException with each broker's answer when they do not agree within {@code timeout}
     */
    public static void awaitAgreement(FaultCluster cluster, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String expected = null;
        Map<Integer, String> views = Map.of();
        while (System.nanoTime() < deadline) {
            views = ofAll(cluster);
            expected = "controller %s, brokers %s".formatted("%d", cluster.brokers().stream().map(b -> b.id())
                    .sorted().map(String::valueOf).collect(Collectors.joining(",", "[", "]")));
            List<String> distinct = views.values().stream().distinct().toList();
            if (distinct.size() == 1 && agreedOnALiveBroker(distinct.get(0), cluster, expected)) {
                return;
            }
            Thread.sleep(POLL_MILLIS);
        }
        throw new IllegalStateException("brokers disagree about the cluster " + timeout + " after the heal: " + views);
    }

    private static boolean agreedOnALiveBroker(String view, FaultCluster cluster, String expected) {
        return cluster.brokers().stream().anyMatch(b -> view.equals(expected.formatted(b.id())));
    }

    private static MetadataResponseData ask(BrokerProcess broker) throws IOException {
        RequestHeader header = new RequestHeader(ApiKeys.METADATA, VERSION, "campaign-metadata-view", 1);
        MetadataRequest request = new MetadataRequest.Builder(new MetadataRequestData().setTopics(List.of())
                .setAllowAutoTopicCreation(false)).build(VERSION);
        ByteBuffer payload = request.serializeWithHeader(header);
        try (Socket socket = new Socket()) {
            socket.setSoTimeout(5_000);
            socket.connect(new InetSocketAddress(broker.node().address(), BrokerProcess.PORT), 5_000);
            ByteBuffer frame = ByteBuffer.allocate(4 + payload.remaining()).putInt(payload.remaining()).put(payload);
            socket.getOutputStream().write(frame.array());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            return ((MetadataResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(bytes), header)).data();
        }
    }
}
