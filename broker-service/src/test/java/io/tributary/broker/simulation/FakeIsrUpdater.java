package io.tributary.broker.simulation;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.replica.IsrUpdater;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;

/**
 * A broker's {@link IsrUpdater} over the {@link FakeZooKeeper}, as {@code ZkIsrUpdater} over
 * ZooKeeper: the leader's proposed state is written to the partition state node with a
 * {@code setData} conditional on the version the leader last saw, after a random delay, and
 * the callback comes as a later simulated event, never on the caller's thread. A write of a
 * broker that crashed meanwhile is dropped with its process.
 *
 * <p>{@link #withoutVersionCheck} is the planted bug the simulation must catch: the write is
 * unconditional, so a deposed leader's late ISR change overwrites the controller's newer state.
 */
final class FakeIsrUpdater implements IsrUpdater {

    private final FakeZooKeeper zk;
    private final SimulatedEventQueue queue;
    private final Random random;
    private final int brokerId;
    private final LongSupplier session;
    private final BooleanSupplier processAlive;
    private final boolean checkVersion;
    private final long maxDelayMs;

    private FakeIsrUpdater(FakeZooKeeper zk, SimulatedEventQueue queue, Random random, int brokerId, LongSupplier session,
                           BooleanSupplier processAlive, boolean checkVersion, long maxDelayMs) {
        this.zk = zk;
        this.queue = queue;
        this.random = random;
        this.brokerId = brokerId;
        this.session = session;
        this.processAlive = processAlive;
        this.checkVersion = checkVersion;
        this.maxDelayMs = maxDelayMs;
    }

    /**
     * @param session      the broker's current ZooKeeper session
     * @param processAlive false once the broker incarnation that submitted a write has crashed
     */
    static FakeIsrUpdater conditional(FakeZooKeeper zk, SimulatedEventQueue queue, Random random, int brokerId,
                                      LongSupplier session, BooleanSupplier processAlive, long maxDelayMs) {
        return new FakeIsrUpdater(zk, queue, random, brokerId, session, processAlive, true, maxDelayMs);
    }

    /** The planted bug: the ISR write skips the version check. */
    static FakeIsrUpdater withoutVersionCheck(FakeZooKeeper zk, SimulatedEventQueue queue, Random random, int brokerId,
                                              LongSupplier session, BooleanSupplier processAlive, long maxDelayMs) {
        return new FakeIsrUpdater(zk, queue, random, brokerId, session, processAlive, false, maxDelayMs);
    }

    @Override
    public void update(TopicPartition tp, LeaderAndIsr proposed, BiConsumer<Integer, Throwable> callback) {
        String path = SimulatedController.statePath(tp);
        queue.schedule(1 + random.nextInt((int) maxDelayMs), "broker " + brokerId + " writes ISR " + proposed.isr()
            + " of " + tp + " epoch " + proposed.leaderEpoch() + " at version " + proposed.zkVersion(), () -> {
                if (!processAlive.getAsBoolean()) {
                    return;
                }
                Integer version = null;
                Throwable error = null;
                try {
                    version = zk.setData(session.getAsLong(), path, proposed, checkVersion ? proposed.zkVersion() : -1);
                } catch (FakeZooKeeper.ZkException e) {
                    error = e;
                }
                Integer v = version;
                Throwable t = error;
                queue.schedule(1 + random.nextInt((int) maxDelayMs), "broker " + brokerId + " ISR write of " + tp
                    + (t == null ? " landed as version " + v : " failed: " + t.getMessage()), () -> {
                        if (processAlive.getAsBoolean()) {
                            callback.accept(v, t);
                        }
                    });
            });
    }
}
