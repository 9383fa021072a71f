package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The request handler threads resized while they run (the dynamic {@code num.io.threads}, KIP-226). */
class RequestHandlerPoolTest {

    private static final String PREFIX = "pool-test-handler-";
    private final RequestChannel channel = new RequestChannel(100);
    private RequestHandlerPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    private static Set<String> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
            .filter(n -> n.startsWith(PREFIX)).collect(Collectors.toSet());
    }

    /** Runs {@code count} requests that each wait until all of them run at once; the names of their threads. */
    private Set<String> runConcurrently(int count) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(count);
        CountDownLatch release = new CountDownLatch(1);
        Set<String> names = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < count; i++) {
            assertThat(channel.offer(() -> {
                names.add(Thread.currentThread().getName());
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            })).isTrue();
        }
        boolean all = started.await(30, TimeUnit.SECONDS);
        release.countDown();
        assertThat(all).as("%d requests ran at once", count).isTrue();
        return names;
    }

    @Test
    void growingStartsThreadsThatTakeRequestsAtOnce() throws Exception {
        pool = new RequestHandlerPool(channel, 2, PREFIX);
        assertThat(liveThreads()).containsExactlyInAnyOrder(PREFIX + 1, PREFIX + 2);
        pool.resize(4);
        assertThat(pool.size()).isEqualTo(4);
        assertThat(runConcurrently(4)).containsExactlyInAnyOrder(PREFIX + 1, PREFIX + 2, PREFIX + 3, PREFIX + 4);
    }

    @Test
    void shrinkingStopsTheThreadsAboveTheSizeAfterTheRequestTheyRun() throws Exception {
        pool = new RequestHandlerPool(channel, 3, PREFIX);
        CountDownLatch busy = new CountDownLatch(3);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < 3; i++) {
            channel.offer(() -> {
                busy.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertThat(busy.await(30, TimeUnit.SECONDS)).isTrue();
        pool.resize(1);
        assertThat(liveThreads()).as("busy threads finish their request first").hasSize(3);
        release.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> liveThreads().equals(Set.of(PREFIX + 1)));
        assertThat(runConcurrently(1)).containsExactly(PREFIX + 1);

        pool.resize(2);
        assertThat(runConcurrently(2)).containsExactlyInAnyOrder(PREFIX + 1, PREFIX + 2);
    }

    @Test
    void aShrinkUndoneBeforeTheThreadsNoticeItKeepsEveryThread() throws Exception {
        pool = new RequestHandlerPool(channel, 4, PREFIX);
        pool.resize(2);
        pool.resize(4);
        assertThat(runConcurrently(4)).hasSize(4);
        assertThat(liveThreads()).hasSize(4);
    }
}
