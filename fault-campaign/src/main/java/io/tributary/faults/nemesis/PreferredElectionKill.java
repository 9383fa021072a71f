package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaFuture;

/**
 * A preferred leader election raced by a SIGKILL. The nemesis makes one partition's leader not its preferred replica
 * (if it is, a reorder reassignment, {@link ReplicaPlan#preferOther}, makes another in-sync replica preferred), asks
 * the controller to elect the preferred replica (ElectLeaders, PREFERRED) and, without waiting for the answer, kills
 * the preferred replica or the current leader (drawn). The heal restarts it; after the campaign's recovery wait a later
 * preferred election must succeed: the preferred replica leads. Not thread-safe.
 */
public final class PreferredElectionKill implements Nemesis {

    private BrokerProcess killed;
    private int partition;

    @Override
    public String kind() {
        return "kill-during-preferred-election";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        String topic = context.topic();
        partition = context.randomPartition(random);
        List<Integer> replicas = context.probe().replicas(topic, partition, context.timeout());
        int leader = context.leader(partition);
        String reorder = "";
        if (replicas.get(0) == leader) {
            ReplicaPlan plan = ReplicaPlan.preferOther(replicas, leader, random);
            Eventually.await(context.timeout(), "the controller records the reorder of " + topic + "-" + partition
                    + " to " + plan.replicas(), () -> {
                        try {
                            join(context.probe().reassign(topic, partition, plan.replicas()), context, "reorder");
                            return null;
                        } catch (IllegalStateException e) {
                            return String.valueOf(e.getCause());
                        }
                    });
            Eventually.await(context.timeout(), "reorder of " + topic + "-" + partition + " to " + plan.replicas(),
                    () -> {
                        List<Integer> now = context.probe().replicas(topic, partition, context.timeout());
                        return now.equals(plan.replicas()) && !context.probe().reassigning(topic, partition) ? null
                                : "replicas " + now;
                    });
            reorder = "reorder " + replicas + " -> " + plan.replicas() + ", ";
            replicas = plan.replicas();
        }
        int preferred = replicas.get(0);
        int victim = random.nextBoolean() ? preferred : leader;
        KafkaFuture<Optional<Throwable>> election = context.probe().electPreferred(topic, partition);
        killed = context.cluster().broker(victim);
        killed.kill();
        String answer;
        try {
            answer = join(election, context, "preferred election").map(Throwable::toString).orElse("elected");
        } catch (IllegalStateException e) {
            answer = e.getCause() == null ? e.toString() : e.getCause().toString();
        }
        return reorder + "elect the preferred replica " + preferred + " of " + topic + "-" + partition + " (leader "
                + leader + "), SIGKILL broker " + victim + (victim == preferred ? " (preferred)" : " (leader)")
                + "; election answered: " + answer;
    }

    private static <T> T join(KafkaFuture<T> future, NemesisContext context, String what) {
        try {
            return future.get(context.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + " not answered within " + context.timeout(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void heal(NemesisContext context) {
        if (killed != null) {
            killed.restart();
            killed.awaitStarted(context.timeout());
            killed = null;
        }
    }

    @Override
    public void verifyRecovered(NemesisContext context) {
        String topic = context.topic();
        Eventually.await(context.timeout(), "a later preferred election of " + topic + "-" + partition, () -> {
            List<Integer> replicas = context.probe().replicas(topic, partition, context.timeout());
            Optional<Throwable> error = join(context.probe().electPreferred(topic, partition), context, "election");
            int leader = context.leader(partition);
            return leader == replicas.get(0) ? null : "leader " + leader + " of replicas " + replicas
                    + error.map(e -> ", election: " + e).orElse("");
        });
    }
}
