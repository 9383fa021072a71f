package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression for the deadlock the fault campaign found (seed 21, kill-leader): a delayed
 * produce's completion callback took a group's lock while the produce's monitor was held, and a
 * request handler holding that group lock was appending, which checked the produce under its
 * monitor.
 */
class DelayedOperationTest {

    private final DelayedOperationPurgatory<Op> purgatory = new DelayedOperationPurgatory<>("test");

    @AfterEach
    void shutdown() {
        purgatory.shutdown();
    }

    /** Completes once {@link #ready} is set; records whether its monitor was held on completion. */
    private static final class Op extends DelayedOperation {
        volatile boolean ready;
        volatile RuntimeException failure;
        final List<Boolean> monitorHeldOnCompletion = new ArrayList<>();
        Runnable onCompletion = () -> { };

        Op() {
            super(60_000);
        }

        @Override
        protected boolean tryComplete() {
            if (!ready) {
                return false;
            }
            boolean done = forceComplete();
            if (failure != null) {
                throw failure;
            }
            return done;
        }

        @Override
        protected void onComplete() {
            monitorHeldOnCompletion.add(Thread.holdsLock(this));
            onCompletion.run();
        }
    }

    @Test
    void completionFoundByACheckRunsOutsideTheOperationsMonitor() {
        Op op = new Op();
        assertThat(purgatory.tryCompleteElseWatch(op, List.of("t-0"))).isFalse();

        op.ready = true;
        assertThat(purgatory.checkAndComplete("t-0")).isEqualTo(1);

        assertThat(op.monitorHeldOnCompletion).containsExactly(false);
        assertThat(purgatory.watched()).isZero();
    }

    @Test
    void operationReadyAtOnceCompletesOnceOutsideItsMonitor() {
        Op op = new Op();
        op.ready = true;

        assertThat(purgatory.tryCompleteElseWatch(op, List.of("t-0"))).isTrue();
        assertThat(purgatory.checkAndComplete("t-0")).isZero();

        assertThat(op.monitorHeldOnCompletion).containsExactly(false);
    }

    @Test
    void completionIsSentEvenWhenTheCheckFailsAfterCompleting() {
        Op op = new Op();
        op.ready = true;
        op.failure = new IllegalStateException("check failed after completing");

        assertThatThrownBy(op::safeTryComplete).hasMessage("check failed after completing");

        assertThat(op.monitorHeldOnCompletion).containsExactly(false);
        assertThat(op.isCompleted()).isTrue();
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void callbackTakingALockHeldByAnAppendingThreadDoesNotDeadlock() throws Exception {
        // The campaign's shape: thread A holds the group lock and checks the operation (an append's
        // checkAndComplete); thread B completes the operation, whose callback wants the group lock.
        Object groupLock = new Object();
        Op op = new Op();
        purgatory.tryCompleteElseWatch(op, List.of("t-0"));
        CountDownLatch callbackWaiting = new CountDownLatch(1);
        CountDownLatch callbackDone = new CountDownLatch(1);
        op.onCompletion = () -> {
            callbackWaiting.countDown();
            synchronized (groupLock) {
                callbackDone.countDown();
            }
        };
        op.ready = true;
        Thread completer;
        synchronized (groupLock) {
            completer = new Thread(() -> purgatory.checkAndComplete("t-0"), "completer");
            completer.start();
            assertThat(callbackWaiting.await(30, TimeUnit.SECONDS)).isTrue();
            // B now waits for the group lock; before the fix it held the operation's monitor.
            synchronized (op) {
                assertThat(op.isCompleted()).isTrue();
            }
        }
        assertThat(callbackDone.await(30, TimeUnit.SECONDS)).isTrue();
        completer.join(30_000);
    }
}
