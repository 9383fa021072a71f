package io.tributary.broker;

import io.tributary.broker.config.DynamicBrokerConfig;
import io.tributary.broker.log.LogCleaner;
import io.tributary.broker.network.RequestHandlerPool;
import io.tributary.broker.replica.ReplicaFetcherManager;
import io.tributary.broker.scheduler.DefaultScheduler;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the dynamic thread pool and log cleaner settings (Kafka's {@code DynamicThreadPool} and
 * {@code LogCleaner} reconfigurables, KIP-226) to the running broker: {@code num.io.threads}
 * resizes the request handlers, {@code num.replica.fetchers} the fetchers per source broker,
 * {@code background.threads} the scheduler, and {@code log.cleaner.*} restarts the cleaner with
 * its new settings (the I/O rate changes at once).
 *
 * <p>The values in effect are applied when bound and after every change of the dynamic broker
 * configs, on the thread that delivers it (the ZooKeeper watch); a pool already of the right size
 * is left alone.
 */
final class DynamicThreadPools {

    private static final Logger log = LoggerFactory.getLogger(DynamicThreadPools.class);

    private DynamicThreadPools() {
    }

    static void bind(DynamicBrokerConfig config, RequestHandlerPool requestHandlers, ReplicaFetcherManager fetchers,
                     DefaultScheduler scheduler, Optional<LogCleaner> cleaner) {
        Runnable apply = () -> {
            try {
                requestHandlers.resize(config.brokerLevelInt("num.io.threads"));
                fetchers.resize(config.brokerLevelInt("num.replica.fetchers"));
                scheduler.resize(config.brokerLevelInt("background.threads"));
                cleaner.ifPresent(c -> c.reconfigure(new LogCleaner.Config(config.brokerLevelInt("log.cleaner.threads"),
                    (Long) config.brokerLevelValue("log.cleaner.dedupe.buffer.size"),
                    config.brokerLevelInt("log.cleaner.io.buffer.size"),
                    (Long) config.brokerLevelValue("log.cleaner.backoff.ms"),
                    (Double) config.brokerLevelValue("log.cleaner.io.buffer.load.factor"),
                    (Double) config.brokerLevelValue("log.cleaner.io.max.bytes.per.second"))));
            } catch (RuntimeException e) {
                // Values written to ZooKeeper without validation: the pools stay as they are.
                log.error("Could not apply the dynamic thread pool and log cleaner settings: {}", e.getMessage());
            }
        };
        apply.run();
        config.addListener(apply);
    }
}
