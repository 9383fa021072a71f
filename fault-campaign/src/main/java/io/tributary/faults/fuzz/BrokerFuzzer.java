package io.tributary.faults.fuzz;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Sends {@code frames} fuzzed request frames to a broker from {@code connections} concurrent connections, each
 * with at most one frame in flight (the broker's own rule): a worker writes a frame, then reads one response frame,
 * or sees the broker close the connection, or gives up after {@code answerTimeout}; in the last two cases, and after
 * a frame whose size prefix lies, it reconnects. Each frame is a random {@link SampleRequest} under a random
 * {@link Mutation} (about one in twenty left valid); a frame that parses as a Produce request with acks=0 gets no
 * answer by protocol, and one that parses as a Fetch with a max wait of at least the answer timeout may long-poll
 * that long, so its worker hangs up after writing it. Worker {@code i} draws from {@code new Random(seed + i)}, so
 * each worker's sequence of frames replays from the seed (their interleaving does not).
 *
 * <p>Closes its sockets with SO_LINGER 0 (a reset, no TIME_WAIT), so a million reconnects do not run out of
 * ephemeral ports. Not thread-safe: one {@link #run} at a time.
 */
public final class BrokerFuzzer {

    /** Largest response frame the workers read, bytes; a larger size means the stream is out of step. */
    private static final int MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

    /**
     * @param broker        the broker's listener
     * @param seed          seeds the workers' randomness
     * @param frames        frames to send in all
     * @param connections   concurrent connections (one worker thread each)
     * @param answerTimeout how long a worker waits for a response before it hangs up
     */
    public record Settings(InetSocketAddress broker, long seed, long frames, int connections, Duration answerTimeout) {
    }

    private final Settings settings;
    private final List<SampleRequest> samples;
    private final List<SampleRequest> batchSamples;
    private final FrameMutator mutator = new FrameMutator();

    /**
     * @param samples the valid requests to mutate, at least one; some should be Produce requests with batches
     */
    public BrokerFuzzer(Settings settings, List<SampleRequest> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no sample requests to fuzz");
        }
        this.settings = settings;
        this.samples = List.copyOf(samples);
        this.batchSamples = samples.stream().filter(SampleRequest::hasBatch).toList();
    }

    /**
     * Runs the workers until {@code frames} frames are sent.
     *
     * @throws IllegalStateException when a worker fails other than by the broker's doing (a bug of the fuzzer)
     */
    public FuzzReport run() throws InterruptedException {
        FuzzReport report = new FuzzReport();
        AtomicLong remaining = new AtomicLong(settings.frames());
        ExecutorService workers = Executors.newFixedThreadPool(settings.connections(), r -> {
            Thread t = new Thread(r, "fuzz-worker");
            t.setDaemon(true);
            return t;
        });
        long start = System.nanoTime();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < settings.connections(); i++) {
                Random random = new Random(settings.seed() + i);
                futures.add(workers.submit(() -> {
                    work(random, remaining, report);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("a fuzz worker failed", e.getCause());
        } finally {
            workers.shutdownNow();
            report.finished(Duration.ofNanos(System.nanoTime() - start));
        }
        return report;
    }

    /** The next frame a worker sends: a mutation, then a sample it applies to. */
    MutatedFrame next(Random random) {
        Mutation[] all = Mutation.values();
        Mutation mutation = random.nextInt(20) == 0 ? Mutation.NONE : all[1 + random.nextInt(all.length - 1)];
        List<SampleRequest> from = mutation.needsBatch() && !batchSamples.isEmpty() ? batchSamples : samples;
        MutatedFrame frame = mutator.mutate(from.get(random.nextInt(from.size())), mutation, random);
        if (!frame.hangUp() && noTimelyAnswerDue(frame.bytes(), settings.answerTimeout().toMillis())) {
            // A Produce with acks=0 gets no response by protocol, and a Fetch may long-poll up to its max wait:
            // waiting for an answer would report a false timeout, so the worker hangs up after writing.
            return new MutatedFrame(frame.source(), frame.mutation(), frame.bytes(), true);
        }
        return frame;
    }

    /**
     * Whether {@code frame} parses as a request the broker need not answer within {@code timeoutMs}: a Produce with
     * acks=0, or a Fetch whose max wait is at least that long with min bytes above 0 (a mutation can make either).
     */
    static boolean noTimelyAnswerDue(byte[] frame, long timeoutMs) {
        if (frame.length < 8 || frame[4] != 0 || (frame[5] != ApiKeys.PRODUCE.id && frame[5] != ApiKeys.FETCH.id)) {
            return false;
        }
        try {
            ByteBuffer buffer = ByteBuffer.wrap(frame, 4, frame.length - 4).slice();
            RequestHeader header = RequestHeader.parse(buffer);
            AbstractRequest request = AbstractRequest.parseRequest(header.apiKey(), header.apiVersion(),
                    new ByteBufferAccessor(buffer)).request;
            if (request instanceof ProduceRequest produce) {
                return produce.acks() == 0;
            }
            return request instanceof FetchRequest fetch && fetch.maxWait() >= timeoutMs && fetch.minBytes() > 0;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void work(Random random, AtomicLong remaining, FuzzReport report) throws IOException {
        Socket socket = null;
        try {
            while (remaining.getAndDecrement() > 0) {
                MutatedFrame frame = next(random);
                if (socket == null) {
                    socket = connect();
                    report.connected();
                }
                FrameOutcome outcome = send(socket, frame);
                report.record(frame, outcome);
                if (outcome != FrameOutcome.ANSWERED || frame.mutation() == Mutation.LENGTH_SHORT) {
                    closeQuietly(socket);
                    socket = null;
                }
            }
        } finally {
            closeQuietly(socket);
        }
    }

    private Socket connect() throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 50; attempt++) {
            Socket s = new Socket();
            try {
                s.setSoLinger(true, 0);
                s.setTcpNoDelay(true);
                s.setSoTimeout((int) settings.answerTimeout().toMillis());
                s.connect(settings.broker(), (int) settings.answerTimeout().toMillis());
                return s;
            } catch (IOException e) {
                closeQuietly(s);
                last = e;
            }
        }
        throw new IOException("cannot connect to " + settings.broker() + " after 50 attempts", last);
    }

    private static FrameOutcome send(Socket socket, MutatedFrame frame) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(frame.bytes());
            out.flush();
            if (frame.hangUp()) {
                return FrameOutcome.HUNG_UP;
            }
            InputStream in = socket.getInputStream();
            DataInputStream data = new DataInputStream(in);
            int size = data.readInt();
            if (size < 0 || size > MAX_RESPONSE_BYTES) {
                return FrameOutcome.CLOSED; // out of step: treated as a lost connection
            }
            data.skipNBytes(size);
            return FrameOutcome.ANSWERED;
        } catch (SocketTimeoutException e) {
            return FrameOutcome.TIMED_OUT;
        } catch (IOException e) {
            return FrameOutcome.CLOSED;
        }
    }

    private static void closeQuietly(Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // already gone
            }
        }
    }
}
