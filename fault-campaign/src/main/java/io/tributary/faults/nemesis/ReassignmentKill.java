package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import io.tributary.faults.harness.ClusterProbe;
import io.tributary.faults.harness.MetadataView;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * SIGKILL of a broker involved in a partition reassignment while it runs. The nemesis reassigns one partition of the
 * topic ({@link ReplicaPlan#move}: with more brokers than replicas one replica moves to a broker outside the set and
 * must copy the log; with as many, a reorder that changes the preferred replica), waits for the controller to record
 * it, and kills at once, drawn, the current leader or the replica the plan brings in (moved in, or made preferred).
 * The heal restarts it; after the campaign's recovery wait the reassignment must have completed: none listed for the
 * partition and its replicas exactly as asked. Not thread-safe.
 */
public final class ReassignmentKill implements Nemesis {

    private BrokerProcess killed;
    private int partition;
    private ReplicaPlan plan;

    @Override
    public String kind() {
        return "kill-during-reassignment";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        partition = context.randomPartition(random);
        List<Integer> current = context.probe().replicas(context.topic(), partition, context.timeout());
        int leader = context.leader(partition);
        plan = ReplicaPlan.move(current, context.brokerIds(), random);
        int newcomer = plan.moved() ? plan.replicas().stream().filter(id -> !current.contains(id)).findFirst()
                .orElseThrow() : plan.preferred();
        int victim = random.nextBoolean() ? leader : newcomer;
        // Right after another fault the controller may still be moving or a broker re-registering: the same
        // reassignment is asked again until the controller records it.
        Eventually.await(context.timeout(), "the controller records the reassignment of " + context.topic() + "-"
                + partition + " to " + plan.replicas(), () -> recorded(context, plan));
        killed = context.cluster().broker(victim);
        killed.kill();
        String inProgress;
        try {
            inProgress = Boolean.toString(context.probe().reassigning(context.topic(), partition));
        } catch (IllegalStateException e) {
            inProgress = "unknown (" + e.getMessage() + ")";
        }
        return "reassign " + context.topic() + "-" + partition + " " + current + " -> " + plan.replicas()
                + (plan.moved() ? " (a move)" : " (a reorder)") + ", SIGKILL broker " + victim
                + (victim == leader ? " (leader)" : " (new replica)") + "; in progress after the kill: " + inProgress;
    }

    /** Null once the controller has recorded the reassignment, else its answer. */
    private String recorded(NemesisContext context, ReplicaPlan plan) {
        try {
            context.probe().reassign(context.topic(), partition, plan.replicas())
                    .get(context.timeout().toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause() + "; " + freshView(context);
        } catch (TimeoutException e) {
            return e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** What an Admin client of its own sees as the controller: tells a stale client from a cluster without one. */
    private static String freshView(NemesisContext context) {
        try (ClusterProbe fresh = new ClusterProbe(context.cluster().bootstrapServers())) {
            return "a new Admin client sees controller " + fresh.controller(java.time.Duration.ofSeconds(5))
                    + brokersViews(context);
        } catch (RuntimeException e) {
            return "a new Admin client sees no controller: " + e.getMessage() + brokersViews(context);
        }
    }

    private static String brokersViews(NemesisContext context) {
        return "; brokers answer " + MetadataView.ofAll(context.cluster());
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
        if (plan == null) {
            return;
        }
        String topic = context.topic();
        Eventually.await(context.timeout(), "reassignment of " + topic + "-" + partition + " to " + plan.replicas()
                + " completed", () -> {
            boolean reassigning = context.probe().reassigning(topic, partition);
            List<Integer> replicas = context.probe().replicas(topic, partition, context.timeout());
            return !reassigning && replicas.equals(plan.replicas()) ? null
                    : "replicas " + replicas + (reassigning ? ", still reassigning" : "");
        });
    }
}
