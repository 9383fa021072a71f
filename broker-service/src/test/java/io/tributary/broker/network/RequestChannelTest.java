package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The queue between network threads and request handler threads: bounded by
 * {@code queued.max.requests}, refusing instead of blocking, waking refused connections once a
 * handler thread takes a request, and handing requests to the handler threads in order.
 */
class RequestChannelTest {

    @Test
    void offersBeyondQueuedMaxRequestsAreRefusedNotBlocked() {
        RequestChannel channel = new RequestChannel(2);
        assertThat(channel.offer(() -> { })).isTrue();
        assertThat(channel.offer(() -> { })).isTrue();
        assertThat(channel.offer(() -> { })).isFalse();
        assertThat(channel.size()).isEqualTo(2);
    }

    @Test
    void requestsAreTakenInTheOrderOffered() throws Exception {
        RequestChannel channel = new RequestChannel(10);
        List<Integer> ran = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            channel.offer(() -> ran.add(n));
        }
        for (int i = 0; i < 5; i++) {
            channel.poll(0).run();
        }
        assertThat(ran).containsExactly(0, 1, 2, 3, 4);
        assertThat(channel.poll(0)).isNull();
    }

    @Test
    void aRefusedOffererIsCalledBackWhenAHandlerTakesARequest() throws Exception {
        RequestChannel channel = new RequestChannel(1);
        channel.offer(() -> { });
        assertThat(channel.offer(() -> { })).isFalse();
        AtomicInteger calls = new AtomicInteger();
        channel.whenSpace(calls::incrementAndGet);
        assertThat(calls).hasValue(0);

        channel.poll(0);

        assertThat(calls).hasValue(1);
        assertThat(channel.offer(() -> { })).isTrue();
    }

    @Test
    void aWaiterRegisteredAfterTheQueueDrainedIsCalledAtOnce() {
        RequestChannel channel = new RequestChannel(1);
        AtomicInteger calls = new AtomicInteger();
        channel.whenSpace(calls::incrementAndGet);
        assertThat(calls).hasValue(1);
    }

    @Test
    void aClosedChannelRefusesOffersButHandsOutWhatItHolds() throws Exception {
        RequestChannel channel = new RequestChannel(4);
        AtomicInteger ran = new AtomicInteger();
        channel.offer(ran::incrementAndGet);
        channel.close();
        assertThat(channel.offer(ran::incrementAndGet)).isFalse();
        channel.poll(0).run();
        assertThat(ran).hasValue(1);
    }

    @Test
    void pollWaitsForAnOfferFromAnotherThread() throws Exception {
        RequestChannel channel = new RequestChannel(4);
        CountDownLatch ran = new CountDownLatch(1);
        Thread handler = new Thread(() -> {
            try {
                Runnable r = channel.poll(30_000);
                if (r != null) {
                    r.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        handler.start();
        channel.offer(ran::countDown);
        assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
        handler.join();
    }

    @Test
    void everyRequestOfferedByManyThreadsRunsOnceOnThePool() throws Exception {
        RequestChannel channel = new RequestChannel(8);
        RequestHandlerPool pool = new RequestHandlerPool(channel, 3, "test-handler-");
        ConcurrentLinkedQueue<Integer> ran = new ConcurrentLinkedQueue<>();
        List<Thread> offerers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int base = t * 1000;
            offerers.add(new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    int n = base + i;
                    offerUntilAccepted(channel, () -> ran.add(n));
                }
            }));
        }
        offerers.forEach(Thread::start);
        for (Thread t : offerers) {
            t.join();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> ran.size() == 2000);
        assertThat(ran).doesNotHaveDuplicates();
        pool.shutdown(10_000);
    }

    /** As a connection does: a refused offer waits for the channel's call back, then offers again. */
    private static void offerUntilAccepted(RequestChannel channel, Runnable request) {
        while (!channel.offer(request)) {
            CountDownLatch space = new CountDownLatch(1);
            channel.whenSpace(space::countDown);
            try {
                space.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Test
    void shutdownRunsWhatIsQueuedAndRefusesTheRest() throws Exception {
        RequestChannel channel = new RequestChannel(100);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        RequestHandlerPool pool = new RequestHandlerPool(channel, 1, "test-handler-");
        channel.offer(() -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ran.incrementAndGet();
        });
        for (int i = 0; i < 10; i++) {
            channel.offer(ran::incrementAndGet);
        }
        Thread stopper = new Thread(() -> pool.shutdown(30_000));
        stopper.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> !channel.offer(() -> { }));
        release.countDown();
        stopper.join();
        assertThat(ran).hasValue(11);
    }
}
