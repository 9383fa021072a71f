package io.tributary.adminui.messages;

import java.io.Closeable;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The live tails being relayed, closed when the app stops: a tail never ends on its own, so
 * without this the web server's graceful shutdown would wait its whole timeout for them (and a
 * pod would use its termination grace period for nothing). Stops before the graceful shutdown
 * phase, so the browsers see their streams end and reconnect elsewhere. Thread-safe.
 */
@Component
public class OpenTails implements SmartLifecycle {

    private final Set<Closeable> upstreams = ConcurrentHashMap.newKeySet();
    private volatile boolean running;

    /** Registers an open upstream stream; returns false (and closes it) when the app is stopping. */
    public boolean add(Closeable upstream) {
        upstreams.add(upstream);
        if (!running) {
            upstreams.remove(upstream);
            closeQuietly(upstream);
            return false;
        }
        return true;
    }

    /** Forgets an upstream stream that has ended. */
    public void remove(Closeable upstream) {
        upstreams.remove(upstream);
    }

    /** How many tails are open. */
    public int size() {
        return upstreams.size();
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        upstreams.forEach(OpenTails::closeQuietly);
        upstreams.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        // Above the web server's graceful shutdown phase (DEFAULT_PHASE - 1024): stopped first.
        return SmartLifecycle.DEFAULT_PHASE - 512;
    }

    private static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException | RuntimeException e) {
            // closing a stream whose reader is blocked: it fails, which is the point
        }
    }
}
