package io.tributary.faults.fuzz;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Slowloris against an HTTP server: {@code idle} connections that send nothing, and {@code trickling} ones that each
 * send a valid v2 JSON produce request one byte at a time, {@code byteIntervalMs} apart, then read the answer. A
 * trickled request must end in an answer that is not a 5xx, or in the server closing the connection (a timeout of
 * its own); {@link #outcomes()} lists what each got. Thread-safe; one thread per trickling connection.
 */
public final class SlowClients implements AutoCloseable {

    private final List<Socket> idle = new ArrayList<>();
    private final List<Thread> tricklers = new ArrayList<>();
    private final List<String> outcomes = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger fiveHundreds = new AtomicInteger();
    private volatile boolean closed;

    /**
     * Opens the connections and starts trickling.
     *
     * @param server         the proxy's address
     * @param topic          the topic the trickled requests produce to
     * @param idle           connections that send nothing
     * @param trickling      connections that trickle a request
     * @param byteIntervalMs time between two trickled bytes, ms
     */
    public SlowClients(InetSocketAddress server, String topic, int idle, int trickling, long byteIntervalMs, long seed)
            throws IOException {
        for (int i = 0; i < idle; i++) {
            Socket s = new Socket();
            s.connect(server, 10_000);
            this.idle.add(s);
        }
        for (int i = 0; i < trickling; i++) {
            String body = RestAttacks.validJsonBody(new Random(seed + i));
            byte[] request = ("POST /topics/" + topic + " HTTP/1.1\r\nHost: " + server.getHostString() + "\r\n"
                    + "Content-Type: " + RestAttacks.JSON_V2 + "\r\nContent-Length: " + body.length() + "\r\n"
                    + "Connection: close\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8);
            Thread t = new Thread(() -> trickle(server, request, byteIntervalMs), "slow-client-" + i);
            t.setDaemon(true);
            tricklers.add(t);
            t.start();
        }
    }

    private void trickle(InetSocketAddress server, byte[] request, long byteIntervalMs) {
        try (Socket s = new Socket()) {
            s.connect(server, 10_000);
            s.setSoTimeout(120_000);
            OutputStream out = s.getOutputStream();
            for (byte b : request) {
                if (closed) {
                    outcomes.add("stopped before the end of its request");
                    return;
                }
                out.write(b);
                out.flush();
                Thread.sleep(byteIntervalMs); // the point of a slow client: it sends slowly
            }
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            String statusLine = answer.lines().findFirst().orElse("");
            if (statusLine.matches("HTTP/1\\.1 5\\d\\d.*")) {
                fiveHundreds.incrementAndGet();
            }
            outcomes.add(statusLine.isEmpty() ? "closed by the server" : statusLine);
        } catch (SocketTimeoutException e) {
            outcomes.add("no answer within 120 s");
            fiveHundreds.incrementAndGet();
        } catch (IOException e) {
            outcomes.add("closed by the server (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until every trickling connection got its answer or was closed, up to {@code timeoutMs} each. */
    public void awaitTricklers(long timeoutMs) throws InterruptedException {
        for (Thread t : tricklers) {
            t.join(timeoutMs);
        }
    }

    /** What each finished trickling connection got: the answer's status line, or how it ended. */
    public List<String> outcomes() {
        synchronized (outcomes) {
            return List.copyOf(outcomes);
        }
    }

    /** Trickled requests answered with a 5xx, or not at all. */
    public int failures() {
        return fiveHundreds.get();
    }

    /** Closes the idle connections and stops the trickling ones. */
    @Override
    public void close() throws IOException {
        closed = true;
        for (Socket s : idle) {
            s.close();
        }
    }
}
