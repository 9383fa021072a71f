package io.tributary.broker.replica;

import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.LeaderAndIsr;
import java.io.Closeable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * {@link IsrUpdater} writing {@code /brokers/topics/{topic}/partitions/{p}/state} with a
 * versioned {@code setData}, on its own thread so that neither network threads nor fetch
 * handling wait for ZooKeeper. Every broker's metadata cache sees the change through its watch.
 *
 * <p>Thread-safe.
 */
public final class ZkIsrUpdater implements IsrUpdater, Closeable {

    private final KafkaZkClient zkClient;
    private final ExecutorService executor;

    public ZkIsrUpdater(KafkaZkClient zkClient, int brokerId) {
        this.zkClient = zkClient;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "broker-" + brokerId + "-isr-updater");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void update(TopicPartition tp, LeaderAndIsr proposed, BiConsumer<Integer, Throwable> callback) {
        try {
            executor.execute(() -> {
                int version;
                try {
                    version = zkClient.updatePartitionState(tp.topic(), tp.partition(), proposed);
                } catch (RuntimeException e) {
                    callback.accept(null, e);
                    return;
                }
                callback.accept(version, null);
            });
        } catch (RejectedExecutionException e) {
            // Shutting down: the change is dropped; the next leader recomputes the ISR.
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
