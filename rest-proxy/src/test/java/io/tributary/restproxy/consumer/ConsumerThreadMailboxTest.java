package io.tributary.restproxy.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.restproxy.error.ConsumerInstanceNotFoundException;
import io.tributary.restproxy.error.IllegalConsumerStateException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.errors.WakeupException;
import org.junit.jupiter.api.Test;

class ConsumerThreadMailboxTest {

    private final List<String> ran = new ArrayList<>();

    @Test
    void operationsRunOnTheConsumersThreadInOrderAndTheirResultsReachTheCallers() {
        var mailbox = new ConsumerThreadMailbox<>("consumer", "c1", ran, true);
        CompletableFuture<Integer> first = mailbox.submit(ops -> { ops.add("a"); return ops.size(); });
        CompletableFuture<Integer> second = mailbox.submit(ops -> { ops.add("b"); return ops.size(); });
        assertThat(ran).isEmpty();

        mailbox.runQueued();

        assertThat(ran).containsExactly("a", "b");
        assertThat(mailbox.await(first)).isEqualTo(1);
        assertThat(mailbox.await(second)).isEqualTo(2);
    }

    @Test
    void anOperationWhoseCallerGaveUpIsNotRunLater() {
        var mailbox = new ConsumerThreadMailbox<>("consumer", "c1", ran, true);
        CompletableFuture<Boolean> abandoned = mailbox.submit(ops -> ops.add("late"));
        abandoned.completeExceptionally(new IllegalStateException("caller timed out"));

        mailbox.runQueued();

        assertThat(ran).isEmpty();
    }

    @Test
    void afterStopNothingIsAcceptedAndQueuedOperationsFailOnceTheConsumerCloses() {
        var mailbox = new ConsumerThreadMailbox<>("share consumer", "s1", ran, false);
        CompletableFuture<Boolean> queued = mailbox.submit(ops -> ops.add("never"));

        assertThat(mailbox.stop()).isTrue();
        assertThat(mailbox.stop()).as("already stopped").isFalse();
        assertThat(mailbox.isRunning()).isFalse();
        assertThatThrownBy(() -> mailbox.submit(ops -> ops.add("refused")))
                .isInstanceOf(ConsumerInstanceNotFoundException.class)
                .hasMessage("Share consumer instance s1 is closed.");

        mailbox.closeAndFailQueued();

        assertThat(ran).isEmpty();
        assertThatThrownBy(() -> mailbox.await(queued)).isInstanceOf(ConsumerInstanceNotFoundException.class)
                .hasMessage("Share consumer instance s1 is closed.");
    }

    @Test
    void aWakeUpMeantForPollIsRetriedOnceOnlyWhereTheConsumerIsWoken() {
        AtomicInteger calls = new AtomicInteger();
        var woken = new ConsumerThreadMailbox<>("consumer", "c1", ran, true);
        CompletableFuture<Integer> retried = woken.submit(ops -> {
            if (calls.incrementAndGet() == 1) {
                throw new WakeupException();
            }
            return calls.get();
        });
        woken.runQueued();
        assertThat(woken.await(retried)).isEqualTo(2);

        var neverWoken = new ConsumerThreadMailbox<>("share consumer", "s1", ran, false);
        CompletableFuture<Object> failed = neverWoken.submit(ops -> {
            throw new WakeupException();
        });
        neverWoken.runQueued();
        assertThatThrownBy(() -> neverWoken.await(failed)).isNotInstanceOf(ConsumerInstanceNotFoundException.class);
    }

    @Test
    void kafkasIllegalStateBecomesTheProxysIllegalConsumerState() {
        var mailbox = new ConsumerThreadMailbox<>("consumer", "c1", ran, true);
        CompletableFuture<Object> failed = mailbox.submit(ops -> {
            throw new IllegalStateException("Subscription to topics, partitions and pattern are mutually exclusive");
        });
        mailbox.runQueued();

        assertThatThrownBy(() -> mailbox.await(failed)).isInstanceOf(IllegalConsumerStateException.class);
    }
}
