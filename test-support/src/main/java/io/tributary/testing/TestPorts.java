package io.tributary.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loopback ports for test servers, taken below the kernel's ephemeral port range.
 *
 * <p>A port found free with {@code new ServerSocket(0)} comes from the ephemeral range, the same
 * range the kernel hands to outgoing connections: a broker process that binds it seconds later
 * can find it taken by some client's socket ("Address already in use", seen in CI). Ports below
 * {@code net.ipv4.ip_local_port_range} are never given to outgoing connections, so once checked
 * free they stay free unless another server takes them. Each JVM walks the range from its own
 * starting point and never hands out a port twice. Thread-safe.
 */
public final class TestPorts {

    private static final int LOWEST = 10_000;
    private static final int END = ephemeralRangeStart();
    private static final AtomicInteger NEXT =
        new AtomicInteger((int) Math.floorMod(ProcessHandle.current().pid() * 7919L, Math.max(1, END - LOWEST)));

    private TestPorts() {
    }

    /** A port that is free now and lies outside the ephemeral range. */
    public static int freePort() {
        return consecutive(1);
    }

    /** The first of {@code count} consecutive ports that are free now, outside the ephemeral range. */
    public static int consecutive(int count) {
        int span = END - LOWEST;
        if (span < 1_000) {
            throw new IllegalStateException("the ephemeral port range starts at " + END + ": no room for test ports");
        }
        for (int attempt = 0; attempt < 500; attempt++) {
            int base = LOWEST + Math.floorMod(NEXT.getAndAdd(count), span);
            if (base + count > END) {
                continue;
            }
            if (allFree(base, count)) {
                return base;
            }
        }
        throw new IllegalStateException("no " + count + " consecutive free ports between " + LOWEST + " and " + END);
    }

    private static boolean allFree(int base, int count) {
        for (int port = base; port < base + count; port++) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(port));
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    private static int ephemeralRangeStart() {
        try {
            // readAllLines, not readString: a /proc file reports size 0, and readString then reads one byte.
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
