package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A rolling restart of every broker in turn, as an operator or the Helm chart does it: graceful stop (SIGTERM, so the
 * broker does its controlled shutdown; SIGKILL only if it has not exited within {@link #STOP_TIMEOUT}), start again,
 * wait until it has started and until the topic and the consumer offsets topic are fully in sync, then the next
 * broker, beginning at a broker drawn from the seed. {@link #start} does the whole roll, so the campaign's hold adds
 * nothing ({@link #maximumHold()} is zero); {@link #heal} starts any broker that does not run. Not thread-safe.
 */
public final class RollingRestart implements Nemesis {

    /** How long a broker may take to exit after SIGTERM: its controlled shutdown (at most 3 x 2 s) and its stop. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final String OFFSETS_TOPIC = "__consumer_offsets";

    @Override
    public String kind() {
        return "rolling-restart";
    }

    @Override
    public Duration maximumHold() {
        return Duration.ZERO;
    }

    @Override
    public String start(NemesisContext context, Random random) {
        List<Integer> order = rollOrder(context.brokerIds(), random);
        List<String> steps = new ArrayList<>();
        for (int id : order) {
            BrokerProcess broker = context.cluster().broker(id);
            long begin = System.nanoTime();
            boolean graceful = broker.stopGracefully(STOP_TIMEOUT);
            long stopped = System.nanoTime();
            broker.startAgain();
            broker.awaitStarted(context.timeout());
            context.probe().awaitFullIsr(context.topic(), context.timeout());
            context.probe().awaitFullIsr(OFFSETS_TOPIC, context.timeout());
            steps.add(String.format(Locale.ROOT, "%d (%s %.1f s, back in sync %.1f s later)", id,
                    graceful ? "exited on SIGTERM in" : "SIGKILLed after", (stopped - begin) / 1e9,
                    (System.nanoTime() - stopped) / 1e9));
        }
        return "rolling restart of brokers " + String.join(", ", steps);
    }

    /** Every broker of {@code ids} once, in order, starting at one drawn from {@code random}. */
    static List<Integer> rollOrder(List<Integer> ids, Random random) {
        List<Integer> order = new ArrayList<>(ids);
        Collections.rotate(order, -random.nextInt(order.size()));
        return order;
    }

    @Override
    public void heal(NemesisContext context) {
        for (BrokerProcess broker : context.cluster().brokers()) {
            if (!broker.isAlive()) {
                broker.startAgain();
                broker.awaitStarted(context.timeout());
            }
        }
    }
}
